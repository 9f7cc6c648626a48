// GET /api/me/identity's conditional read (docs/decisions/087-polled-routes-validated-by-row-stamps.md):
// an unchanged poll answers 304 on a validator over the rows' stamps, with nothing built and the signing
// sidecar not needed; every kind of change that alters the answer alters the tag, including a peer's
// blocklisting under the same CA, an entry's expiry with no write at all, and a restart.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { eventually } from "../harness/bus";
import { sidecarPids } from "../harness/process";
import { sqlite } from "../harness/sqlite";
import { PASSWORD, useWorld } from "../harness/world";

const { platform, world: w } = useWorld();

interface Poll {
  status: number;
  etag: string;
  text: string;
}

async function poll(thing: PocketBase, etag = "", include = ""): Promise<Poll> {
  const headers: Record<string, string> = { Authorization: thing.authStore.token, ...(etag ? { "If-None-Match": etag } : {}) };
  const response = await fetch(`${platform.url}/api/me/identity${include ? `?include=${include}` : ""}`, { headers });
  return { status: response.status, etag: response.headers.get("etag") ?? "", text: await response.text() };
}

/** Asserts that the change made by `change` is seen by a poll holding the tag from before it: a 200 with a new tag and a new answer. */
async function expectSeen(thing: PocketBase, change: () => Promise<unknown>, include = ""): Promise<Poll> {
  const before = await poll(thing, "", include);
  expect((await poll(thing, before.etag, include)).status).toBe(304);
  await change();
  const after = await poll(thing, before.etag, include);
  expect(after.status).toBe(200);
  expect(after.etag).not.toBe(before.etag);
  expect(after.text).not.toBe(before.text);
  expect((await poll(thing, after.etag, include)).status).toBe(304);
  return after;
}

describe("GET /api/me/identity with If-None-Match", () => {
  it("answers 304 with no body to the current tag, a tag per asked material, and keeps answering while the signing sidecar is stopped", async () => {
    const thing = await w.client("thing");
    const first = await poll(thing);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const unchanged = await poll(thing, first.etag);
    expect([unchanged.status, unchanged.text, unchanged.etag]).toEqual([304, "", first.etag]);
    expect((await poll(thing, `W/${first.etag}, "other"`)).status).toBe(304);
    // The tag of a revisions-only answer never stands for key material.
    const withCreds = await poll(thing, first.etag, "creds_file");
    expect(withCreds.status).toBe(200);
    expect(withCreds.text).toContain("NATS USER JWT");
    expect(withCreds.etag).not.toBe(first.etag);
    expect((await poll(thing, "")).etag).toBe(first.etag);

    const sidecars = sidecarPids(platform.dataDir);
    expect(sidecars.length).toBe(1);
    process.kill(sidecars[0], "SIGSTOP");
    try {
      expect((await poll(thing, first.etag)).status).toBe(304);
      expect((await poll(thing)).status).toBe(200);
    } finally {
      process.kill(sidecars[0], "SIGCONT");
    }
  });

  it("moves the tag on a rotation, a suspension, a relink and a peer's blocklisting under the same CA", async () => {
    const thing = await w.client("thing");
    const org = w.a.organization.id;
    const rotate = () => fetch(`${platform.url}/api/me/bus-creds/rotate`, { method: "POST", headers: { Authorization: thing.authStore.token } });
    await expectSeen(thing, rotate);
    await expectSeen(thing, rotate, "creds_file,config_yaml");
    await expectSeen(thing, () => w.su.collection("bus_users").update(w.a.bus_users.id, { active: false }));
    await expectSeen(thing, () => w.su.collection("bus_users").update(w.a.bus_users.id, { active: true }));

    // A peer host under the same CA deactivated: only the CA's list is written, not this host's row.
    const peerHost = await w.su.collection("overlay_hosts").create({ organization: org, network: w.a.overlay_networks.id, name: "etag-peer", overlay_ip: "10.42.0.91", active: true });
    const peer = await w.su.collection("things").create({ organization: org, name: "etag-peer", active: true, password: PASSWORD, passwordConfirm: PASSWORD, overlay_host: peerHost.id });
    const hostRow = await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id);
    const blocked = await expectSeen(thing, () => w.su.collection("things").update(peer.id, { active: false }), "config_yaml");
    expect(blocked.text).toContain(peerHost.fingerprint);
    expect((await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id)).updated).toBe(hostRow.updated);

    // The Thing relinked: no overlay host, then its own again.
    await expectSeen(thing, () => w.su.collection("things").update(w.a.things.id, { overlay_host: "" }));
    await expectSeen(thing, () => w.su.collection("things").update(w.a.things.id, { overlay_host: w.a.overlay_hosts.id }));
  });

  it("moves the tag when a blocklist entry expires, with no write at all", async () => {
    const thing = await w.client("thing");
    // An entry whose certificate expired 55 s ago: dropped from the served list 5 s from now (60 s margin).
    const fingerprint = "e7".repeat(32);
    const notAfter = Math.floor(Date.now() / 1000) - 55;
    sqlite(platform.dataDir, `UPDATE overlay_ca SET revoked_fingerprints = json_insert(COALESCE(revoked_fingerprints, '[]'), '$[#]', json_array('${fingerprint}', ${notAfter})), updated = strftime('%Y-%m-%d %H:%M:%f', 'now') || 'Z' WHERE organization = '${w.a.organization.id}';`);
    const listed = await poll(thing, "", "config_yaml");
    expect(listed.text).toContain(fingerprint);
    expect((await poll(thing, listed.etag, "config_yaml")).status).toBe(304);
    let after: Poll | undefined;
    const expired = await eventually(async () => {
      after = await poll(thing, listed.etag, "config_yaml");
      return after.status === 200;
    }, 15_000);
    expect(expired).toBe(true);
    expect(after?.text).not.toContain(fingerprint);
    expect(after?.etag).not.toBe(listed.etag);
  });

  it("moves every tag across a restart (a migration may have rewritten a list without a stamp)", async () => {
    const thing = await w.client("thing");
    const before = await poll(thing);
    await platform.restart();
    const after = await poll(thing, before.etag);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text)).toEqual(JSON.parse(before.text));
    expect((await poll(thing, after.etag)).status).toBe(304);
  });
});
