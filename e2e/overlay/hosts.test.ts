// overlay_hosts issuance (spec 2.1 overlay rows; docs/overlay.md "Hosts and configs"), judged by the pinned
// bin/nebula-cert (chain, fields) and bin/nebula -test (the config runs as is).
import yaml from "js-yaml";
import { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { NEBULA, NEBULA_CERT, useNebulaWorkspace } from "../harness/nebula";
import { useWorld } from "../harness/world";


const { run, file } = useNebulaWorkspace("overlay-hosts-");

async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ClientResponseError) return { status: err.status, message: err.response.message as string };
    throw err;
  }
  return { status: 200, message: "" };
}

describe("overlay hosts", () => {
  const { world: w } = useWorld();

  it("an owner's host is signed by the organization's CA and its config runs as is", async () => {
    const owner = await w.client("owner");
    const host = await owner.collection("overlay_hosts").create({
      organization: w.a.organization.id,
      network: w.a.overlay_networks.id,
      name: "edge-1",
      overlay_ip: "10.42.0.5",
      groups: ["servers", "edge"],
      active: true,
    });
    expect(host.private_key).toBeUndefined();
    const stored = await w.su.collection("overlay_hosts").getOne(host.id);
    const ca = await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id);
    const caPath = file("ca.crt", ca.cert);
    const crtPath = file("host.crt", stored.cert);
    const verified = run(NEBULA_CERT, ["verify", "-ca", caPath, "-crt", crtPath]);
    expect(verified.code, verified.out).toBe(0);

    const printed = run(NEBULA_CERT, ["print", "-json", "-path", crtPath]);
    expect(printed.code, printed.out).toBe(0);
    const parsed = JSON.parse(printed.out);
    const cert = Array.isArray(parsed) ? parsed[0] : parsed;
    expect(cert.details.name).toBe("edge-1");
    expect(cert.details.networks).toEqual(["10.42.0.5/16"]);
    expect([...cert.details.groups].sort()).toEqual(["edge", "servers"]);
    expect(cert.details.isCa).toBe(false);
    expect(cert.details.issuer).toBe(ca.fingerprint);
    expect(Date.parse(cert.details.notAfter)).toBeLessThanOrEqual(Date.parse(ca.not_after.replace(" ", "T")) + 1000);
    expect(cert.fingerprint).toBe(stored.fingerprint);
    expect(stored.private_key).toContain("NEBULA X25519 PRIVATE KEY");

    expect(host.config_yaml).toContain("NEBULA X25519 PRIVATE KEY");
    const tested = run(NEBULA, ["-test", "-config", file("config.yml", host.config_yaml)]);
    expect(tested.code, tested.out).toBe(0);
  });

  it("a lighthouse with a public endpoint appears in the other hosts' configs", async () => {
    const su = w.su;
    await su.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "lh", overlay_ip: "10.42.0.1",
      active: true, is_lighthouse: true, public_endpoint: "198.51.100.7:4242",
    });
    const host = await su.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "edge-2", overlay_ip: "10.42.0.6", active: true,
    });
    expect(host.config_yaml).toContain("198.51.100.7:4242");
    const tested = run(NEBULA, ["-test", "-config", file("config2.yml", host.config_yaml)]);
    expect(tested.code, tested.out).toBe(0);
  });

  it("a config lists the network's active lighthouses with an endpoint, in address order, never itself", async () => {
    const su = w.su;
    const base = { organization: w.a.organization.id, network: w.a.overlay_networks.id };
    const lighthouse = (name: string, ip: string, fields: Record<string, unknown>) =>
      su.collection("overlay_hosts").create({ ...base, name, overlay_ip: ip, is_lighthouse: true, active: true, ...fields });
    await lighthouse("lh-late", "10.42.0.22", { public_endpoint: "198.51.100.22:4242" });
    await lighthouse("lh-early", "10.42.0.21", { public_endpoint: "198.51.100.21:4242" });
    await lighthouse("lh-off", "10.42.0.23", { public_endpoint: "198.51.100.23:4242", active: false });
    await lighthouse("lh-hidden", "10.42.0.24", { public_endpoint: "" });
    const host = await su.collection("overlay_hosts").create({ ...base, name: "edge-4", overlay_ip: "10.42.0.25", active: true });
    const config = yaml.load(host.config_yaml) as { lighthouse: { hosts: string[] }; static_host_map: Record<string, string[]> };
    // These two by address (after any lighthouse an earlier test made); the inactive, the hidden and itself never.
    const listed = config.lighthouse.hosts;
    expect(listed.filter((ip) => ip.startsWith("10.42.0.2"))).toEqual(["10.42.0.21", "10.42.0.22"]);
    expect(listed).toEqual([...listed].sort());
    expect(config.static_host_map["10.42.0.21"]).toEqual(["198.51.100.21:4242"]);
    const ownConfig = (await su.collection("overlay_hosts").update((await su.collection("overlay_hosts").getFirstListItem('name = "lh-late"')).id, { groups: [] })).config_yaml;
    expect(ownConfig).toContain("am_lighthouse: true");
    expect(ownConfig).not.toContain("198.51.100.22:4242");
  });

  it("re-signs when a certificate field changes, only regenerates the config otherwise", async () => {
    const host = await w.su.collection("overlay_hosts").create({
      organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "edge-3", overlay_ip: "10.42.0.7", active: true,
    });
    const renamed = await w.su.collection("overlay_hosts").update(host.id, { name: "edge-3b" });
    expect(renamed.fingerprint).not.toBe(host.fingerprint);
    const toggled = await w.su.collection("overlay_hosts").update(host.id, { public_endpoint: "198.51.100.9:4242" });
    expect(toggled.fingerprint).toBe(renamed.fingerprint);
    expect(toggled.cert).toBe(renamed.cert);
  });

  it("blocks the certificate an active host held before it was re-signed as another address or name, not one renewed", async () => {
    const create = (name: string, overlay_ip: string) =>
      w.su.collection("overlay_hosts").create({ organization: w.a.organization.id, network: w.a.overlay_networks.id, name, overlay_ip, active: true });
    // Entries are [fingerprint, notAfter] (docs/overlay.md "Pruning").
    const blocked = async () => (((await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id)).revoked_fingerprints ?? []) as unknown[]).map((entry) => (Array.isArray(entry) ? entry[0] : entry) as string);
    const mover = await create("mover", "10.42.0.40");
    const moved = await w.su.collection("overlay_hosts").update(mover.id, { overlay_ip: "10.42.0.41" });
    expect(await blocked()).toContain(mover.fingerprint);
    expect(await blocked()).not.toContain(moved.fingerprint);
    // The next host given the old address, and every other host, is served the block.
    const successor = await create("successor", "10.42.0.40");
    const config = yaml.load((await w.su.collection("overlay_hosts").getOne(successor.id)).config_yaml) as { pki: { blocklist: string[] } };
    expect(config.pki.blocklist).toContain(mover.fingerprint);

    const renamed = await w.su.collection("overlay_hosts").update(mover.id, { name: "mover-b" });
    expect(await blocked()).toContain(moved.fingerprint);
    const renewed = await w.su.collection("overlay_hosts").update(mover.id, { cert: "" });
    expect(renewed.fingerprint).not.toBe(renamed.fingerprint);
    expect(await blocked()).not.toContain(renamed.fingerprint);
  });

  it("refuses an address outside the network, and one already used in it", async () => {
    const owner = await w.client("owner");
    const body = { organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "bad", active: true };
    const outside = await refusal(owner.collection("overlay_hosts").create({ ...body, overlay_ip: "10.43.0.5" }));
    expect(outside.status).toBe(400);
    expect(outside.message).toMatch(/outside the network 10\.42\.0\.0\/16/);
    const duplicate = await refusal(owner.collection("overlay_hosts").create({ ...body, overlay_ip: "10.42.0.10" }));
    expect(duplicate.status).toBe(400);
    expect(duplicate.message).toMatch(/already used in the network/);
    const broadcast = await refusal(owner.collection("overlay_hosts").create({ ...body, overlay_ip: "10.42.255.255" }));
    expect(broadcast.status).toBe(400);
  });
});
