// POST /api/org/overlay-ca/rotate (spec 3.2 overlay CA rotation rows, 4.2, 7; docs/overlay.md "CA rotation"),
// judged by js-yaml, bin/nebula-cert verify and bin/nebula -test.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import yaml from "js-yaml";
import { ClientResponseError, type RecordModel } from "pocketbase";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusOf, useWorld } from "../harness/world";

const NEBULA_CERT = resolve(__dirname, "../../bin/nebula-cert");
const NEBULA = resolve(__dirname, "../../bin/nebula");

let dir = "";
let counter = 0;
beforeAll(() => {
  for (const bin of [NEBULA_CERT, NEBULA]) if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`make binaries\``);
  dir = mkdtempSync(join(tmpdir(), "overlay-rotation-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(bin: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(bin, args, { encoding: "utf8", timeout: 15_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

function file(name: string, text: string): string {
  const path = join(dir, `${counter++}-${name}`);
  writeFileSync(path, text);
  return path;
}

const caBundleOf = (configYaml: string): string => (yaml.load(configYaml) as { pki: { ca: string } }).pki.ca;
const certCount = (pem: string): number => pem.split("-----BEGIN NEBULA CERTIFICATE-----").length - 1;

async function rotate(pb: PocketBase, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    return { status: 200, body: (await pb.send("/api/org/overlay-ca/rotate", { method: "POST", body })) as Record<string, unknown> };
  } catch (err) {
    if (err instanceof ClientResponseError) return { status: err.status, body: err.response };
    throw err;
  }
}

describe("overlay CA rotation", () => {
  const { world: w } = useWorld();

  const ca = () => w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id);
  const hostsOf = () => w.su.collection("overlay_hosts").getFullList({ filter: `organization = "${w.a.organization.id}"`, sort: "name" });

  function verifies(caPem: string, host: RecordModel): void {
    const r = run(NEBULA_CERT, ["verify", "-ca", file("ca.crt", caPem), "-crt", file("host.crt", host.cert)]);
    expect(r.code, `${host.name}: ${r.out}`).toBe(0);
  }

  function configRuns(host: RecordModel): void {
    const r = run(NEBULA, ["-test", "-config", file("config.yml", host.config_yaml)]);
    expect(r.code, `${host.name}: ${r.out}`).toBe(0);
  }

  it("refuses a viewer, an unknown step, a malformed body and transitions out of order", async () => {
    const owner = await w.client("owner");
    expect(await statusOf((await w.client("viewer")).send("/api/org/overlay-ca/rotate", { method: "POST", body: { step: "prepare" } }))).toBe(403);
    expect(await statusOf((await w.client("member")).send("/api/org/overlay-ca/rotate", { method: "POST", body: { step: "prepare" } }))).toBe(403);
    // The role is checked before the body: a malformed one is no hint to a caller who may not act.
    expect(await statusOf((await w.client("member")).send("/api/org/overlay-ca/rotate", { method: "POST", body: { step: "shred" } }))).toBe(403);
    expect(await statusOf((await w.client("viewer")).send("/api/org/overlay-ca/rotate", { method: "POST", body: [] }))).toBe(403);
    expect((await rotate(owner, { step: "abort" })).status).toBe(400);
    expect((await rotate(owner, {})).status).toBe(400);
    expect((await rotate(owner, { step: 3 })).status).toBe(400);
    expect((await rotate(owner, [])).status).toBe(400);
    const commit = await rotate(owner, { step: "commit" });
    expect(commit.status).toBe(400);
    expect(commit.body.message).toBe("no overlay CA rotation is prepared: prepare before commit");
    const finish = await rotate(owner, { step: "finish" });
    expect(finish.status).toBe(400);
    expect(finish.body.message).toBe("no overlay CA rotation is under way: prepare and commit before finish");
    expect((await ca()).rotation).toBe("");
  });

  it("prepares, commits and finishes with two active hosts and one deactivated", async () => {
    const owner = await w.client("owner");
    const admin = await w.client("admin");
    const base = { organization: w.a.organization.id, network: w.a.overlay_networks.id, active: true };
    const edgeA = await owner.collection("overlay_hosts").create({ ...base, name: "edge-a", overlay_ip: "10.42.1.1" });
    const edgeB = await owner.collection("overlay_hosts").create({ ...base, name: "edge-b", overlay_ip: "10.42.1.2" });
    const retired = await owner.collection("overlay_hosts").create({ ...base, name: "retired", overlay_ip: "10.42.1.3" });
    const outgoing = await ca();
    const before = new Map((await hostsOf()).map((h) => [h.id, h]));

    // prepare: both CAs trusted, issuance unchanged; preparing again replaces the incoming CA.
    const first = await rotate(owner, { step: "prepare" });
    expect(first).toEqual({ status: 200, body: { applied: "prepare", overlay_ca: outgoing.id } });
    const firstIncoming = (await ca()).next_fingerprint;
    expect((await rotate(admin, { step: "prepare" })).status).toBe(200);
    const prepared = await ca();
    expect(prepared.rotation).toBe("prepared");
    expect(prepared.fingerprint).toBe(outgoing.fingerprint);
    expect(prepared.cert).toBe(outgoing.cert);
    expect(prepared.next_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(prepared.next_fingerprint).not.toBe(firstIncoming);
    expect(prepared.next_private_key).toMatch(/NEBULA ED25519 PRIVATE KEY/);
    expect((await owner.collection("overlay_ca").getOne(outgoing.id)).next_private_key).toBeUndefined();
    for (const host of await hostsOf()) {
      expect(host.fingerprint).toBe(before.get(host.id)?.fingerprint);
      const bundle = caBundleOf(host.config_yaml);
      expect(certCount(bundle)).toBe(2);
      expect(bundle).toContain(outgoing.cert);
      expect(bundle).toContain(prepared.next_cert);
      configRuns(host);
    }
    const early = await rotate(owner, { step: "finish" });
    expect(early.status).toBe(400);
    // Every active host still holds the outgoing CA's certificate: the refusal says commit comes first and
    // names the first of them (edge-a, by name) by name and id.
    expect(early.body.message).toBe(
      `the overlay CA rotation is prepared but not committed: commit before finish; active host "edge-a" (id ${edgeA.id}) still holds a certificate of the outgoing overlay CA`,
    );

    // A host deactivated before commit keeps its certificate of the outgoing CA.
    await w.su.collection("overlay_hosts").update(retired.id, { active: false });
    const retiredBefore = await w.su.collection("overlay_hosts").getOne(retired.id);
    const edgeBOld = await w.su.collection("overlay_hosts").getOne(edgeB.id);

    // commit: issuance moves to the incoming CA; every active host re-signed; both CAs still trusted.
    expect(await rotate(owner, { step: "commit" })).toEqual({ status: 200, body: { applied: "commit", overlay_ca: outgoing.id } });
    const committed = await ca();
    expect(committed.rotation).toBe("committed");
    expect(committed.cert).toBe(prepared.next_cert);
    expect(committed.fingerprint).toBe(prepared.next_fingerprint);
    expect(committed.previous_fingerprint).toBe(outgoing.fingerprint);
    expect(committed.previous_cert).toBe(outgoing.cert);
    expect(committed.next_cert).toBe("");
    const afterCommit = await hostsOf();
    for (const host of afterCommit) {
      const bundle = caBundleOf(host.config_yaml);
      expect(certCount(bundle)).toBe(2);
      expect(bundle).toContain(outgoing.cert);
      if (!host.active) continue;
      expect(host.fingerprint).not.toBe(before.get(host.id)?.fingerprint);
      verifies(committed.cert, host);
      configRuns(host);
    }
    expect((await w.su.collection("overlay_hosts").getOne(retired.id)).fingerprint).toBe(retiredBefore.fingerprint);
    expect(afterCommit.map((h) => h.name)).toEqual(expect.arrayContaining(["edge-a", "edge-b", "retired"]));

    // commit again: 200, nothing left to re-sign.
    expect((await rotate(owner, { step: "commit" })).status).toBe(200);
    for (const host of await hostsOf()) if (host.active) expect(host.fingerprint).toBe(afterCommit.find((h) => h.id === host.id)?.fingerprint);
    const prepareNow = await rotate(owner, { step: "prepare" });
    expect(prepareNow.status).toBe(400);
    expect(prepareNow.body.message).toBe("the overlay CA rotation is committed: finish it before preparing another");

    // An interrupted sweep, simulated: a SuperUser writes edge-b's certificate of the outgoing CA back
    // (a write of `cert` alone does not re-sign). finish names the host; commit again resumes the sweep.
    await w.su.collection("overlay_hosts").update(edgeB.id, { cert: edgeBOld.cert });
    expect((await w.su.collection("overlay_hosts").getOne(edgeB.id)).cert).toBe(edgeBOld.cert);
    const refused = await rotate(owner, { step: "finish" });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`active host "edge-b" (id ${edgeB.id}) still holds a certificate of the outgoing overlay CA: run commit again to re-sign it`);
    expect((await rotate(owner, { step: "commit" })).status).toBe(200);
    const resumed = await w.su.collection("overlay_hosts").getOne(edgeB.id);
    expect(resumed.cert).not.toBe(edgeBOld.cert);
    verifies(committed.cert, resumed);
    expect((await w.su.collection("overlay_hosts").getOne(edgeA.id)).fingerprint).toBe(afterCommit.find((h) => h.id === edgeA.id)?.fingerprint);

    // finish: the inactive host does not hold it up; configs trust only the new CA.
    expect(await rotate(owner, { step: "finish" })).toEqual({ status: 200, body: { applied: "finish", overlay_ca: outgoing.id } });
    const finished = await ca();
    expect(finished.rotation).toBe("");
    expect(finished.previous_cert).toBe("");
    expect(finished.previous_fingerprint).toBe("");
    expect(finished.fingerprint).toBe(committed.fingerprint);
    for (const host of await hostsOf()) {
      expect(caBundleOf(host.config_yaml)).toBe(committed.cert);
      if (!host.active) continue;
      verifies(finished.cert, host);
      configRuns(host);
    }
    const again = await rotate(owner, { step: "finish" });
    expect(again.status).toBe(400);

    // A host created afterwards is issued by the new CA.
    const late = await owner.collection("overlay_hosts").create({ ...base, name: "edge-c", overlay_ip: "10.42.1.4" });
    verifies(finished.cert, await w.su.collection("overlay_hosts").getOne(late.id));
  });

  it("a host the things route creates while the rotation commits is issued by the CA that issues when its row commits", async () => {
    // The route signs a host's certificate before its transaction (lib/presigned.ts); one signed
    // by the outgoing CA must not be stored once commit has moved issuance to the incoming one.
    const owner = await w.client("owner");
    expect((await rotate(owner, { step: "prepare" })).status).toBe(200);
    const creations = Array.from({ length: 40 }, (_, i) =>
      owner.send("/api/org/things", { method: "POST", body: { name: `racer ${i}`, overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: `10.42.7.${i + 1}` } } }),
    );
    await new Promise((r) => setTimeout(r, 150));
    expect((await rotate(owner, { step: "commit" })).status).toBe(200);
    const created = (await Promise.allSettled(creations)).map((result) => {
      if (result.status === "rejected") throw result.reason;
      return result.value as { id: string };
    });
    const issuing = await ca();
    const racers = (await hostsOf()).filter((h) => String(h.name).startsWith("TH-") && String(h.overlay_ip).startsWith("10.42.7."));
    expect(racers).toHaveLength(created.length);
    for (const host of racers) verifies(issuing.cert, host);
    expect((await rotate(owner, { step: "finish" })).status).toBe(200);
  });

  it("a prepared rotation is withdrawn by the Platform Operator on the record: the incoming CA is gone from the row and from every config", async () => {
    const owner = await w.client("owner");
    const operator = await w.client("operator");
    const issuing = await ca();
    expect((await rotate(owner, { step: "prepare" })).status).toBe(200);
    const prepared = await ca();
    expect(certCount(caBundleOf((await hostsOf())[0].config_yaml))).toBe(2);
    // The owner may not edit the CA record (spec 5.6), and the operator may not move the rotation on.
    expect(await statusOf(owner.collection("overlay_ca").update(issuing.id, { rotation: "" }))).toBe(404);
    expect(await statusOf(operator.collection("overlay_ca").update(issuing.id, { rotation: "committed" }))).toBe(400);
    expect(await statusOf(operator.collection("overlay_ca").update(issuing.id, { rotation: "", cert: prepared.next_cert }))).toBe(400);

    const withdrawn = await operator.collection("overlay_ca").update(issuing.id, { rotation: "" });
    expect(withdrawn).toMatchObject({ rotation: "", next_cert: "", next_fingerprint: "", next_not_after: "", cert: issuing.cert, fingerprint: issuing.fingerprint });
    expect((await ca()).next_private_key).toBe("");
    const hosts = await hostsOf();
    expect(hosts.length).toBeGreaterThan(0);
    for (const host of hosts) {
      const bundle = caBundleOf(host.config_yaml);
      expect(certCount(bundle), host.name).toBe(1);
      expect(bundle).toContain(issuing.cert);
      configRuns(host);
    }
    expect((await rotate(owner, { step: "commit" })).body.message).toBe("no overlay CA rotation is prepared: prepare before commit");
    expect((await rotate(owner, { step: "prepare" })).status).toBe(200);
    expect(await statusOf(operator.collection("overlay_ca").update(issuing.id, { rotation: "", next_cert: "", next_fingerprint: "", next_not_after: "" }))).toBe(200);
  });
});
