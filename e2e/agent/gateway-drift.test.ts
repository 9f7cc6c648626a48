// A hub identity changed under a running gateway (issue 11, spec 9.5): the control plane restarted with
// another hub_leaf_url (another form of the same address, so the hub keeps running and stays reachable)
// and another hub_domain (the hub's nats-server does not read it). The agent must REPORT the change (sync
// warns naming the fields, with `agent gateway reconfigure --state-dir …` as the fix) and must NOT apply it:
// the same leaf process keeps running its old config file, dialing the old URL, its uplink attached, and
// account tokens keep being applied meanwhile. `agent gateway reconfigure` then applies it: the leaf is
// restarted on the new values and sync is ok again.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leafFiles } from "../../agent/src/gateway/leaf-files";
import { AGENT_BUNDLE } from "../harness/agent";
import { busAccepts, closedWithin, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { startGatewaySite, type GatewaySite } from "../harness/gateway";
import { checkOf, readyWhen } from "../harness/readiness";

const REFRESH = "2s";
const NEW_DOMAIN = "hub_moved";

let bus: PlatformWithBus;
let site: GatewaySite;

beforeAll(async () => {
  bus = await startPlatformWithBus();
  site = await startGatewaySite(bus, { refresh: REFRESH, uplinkRestartAfter: "5m" });
}, 120_000);
afterAll(async () => {
  await site?.stop();
  await bus?.stop();
});

interface LeafVarz {
  leaf?: { remotes?: { urls?: string[] }[] };
}

/** The URLs the running leaf dials, from its own /varz. */
async function leafRemoteUrls(): Promise<string[]> {
  const varz = (await (await fetch(`http://127.0.0.1:${site.monitorPort}/varz`)).json()) as LeafVarz;
  return (varz.leaf?.remotes ?? []).flatMap((r) => r.urls ?? []);
}

/** Leaf connections the hub sees, by name. */
async function hubLeafNames(): Promise<string[]> {
  const leafz = (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/leafz`)).json()) as { leafs?: { name: string }[] };
  return (leafz.leafs ?? []).map((l) => l.name);
}

const leafPid = (detail: string | undefined) => Number(/pid (\d+)/.exec(detail ?? "")?.[1]);
const appliedFile = () => JSON.parse(readFileSync(leafFiles(site.stateDir).applied, "utf8")) as Record<string, string>;
const leafConf = () => readFileSync(leafFiles(site.stateDir).config, "utf8");
const allOk = (names: string[]) => (b: Parameters<typeof checkOf>[0]) => names.every((name) => checkOf(b, name).state === "ok");
const GATEWAY_CHECKS = ["bus", "bus_local", "hub_uplink", "sync"];

describe("a changed hub identity under a running gateway", () => {
  it("is reported by sync, never applied silently; agent gateway reconfigure applies it", async () => {
    const settled = await readyWhen(site.url, allOk(GATEWAY_CHECKS), { path: "/ready", withinMs: 60_000 });
    const oldUrl = `nats-leaf://127.0.0.1:${bus.ports.leafnode}`;
    const newUrl = `nats-leaf://localhost:${bus.ports.leafnode}`;
    expect(appliedFile().hub_leaf_url).toBe(oldUrl);
    expect(appliedFile().hub_domain).toBe("hub");
    const pid = leafPid(checkOf(settled.body, "bus_local").detail);
    expect(pid).toBeGreaterThan(0);
    const confBefore = leafConf();
    expect(confBefore).toContain(oldUrl);
    expect((await leafRemoteUrls()).join(" ")).toContain(`127.0.0.1:${bus.ports.leafnode}`);

    // The control plane only: the hub's nats-server keeps running, so the leaf's uplink has no reason to drop.
    const changed = Date.now();
    await bus.platform.restart({ PLATFORM_BUS_LEAF_URL: newUrl, PLATFORM_BUS_PERSIST_DOMAIN: NEW_DOMAIN });
    const drifted = await readyWhen(site.url, (b) => checkOf(b, "sync").state === "warn", { path: "/ready", withinMs: 30_000 });
    console.log(`control plane restarted with changed hub_leaf_url and hub_domain -> sync warns: ${Date.now() - changed} ms (leaf_config_interval ${REFRESH})`);
    const sync = checkOf(drifted.body, "sync");
    expect(sync.detail).toContain("hub_leaf_url");
    expect(sync.detail).toContain("hub_domain");
    expect(sync.detail).not.toContain("operator_jwt");
    expect(sync.fix).toContain(`agent gateway reconfigure --state-dir ${site.stateDir}`);
    // A warning, not a failure: the site keeps serving.
    expect(drifted.status).toBe(200);
    const warned = await site.agent.waitForLog((l) => l.msg === "gateway: the hub's leaf configuration changed; not applied", 10_000);
    expect(warned.fields).toBe("hub_leaf_url,hub_domain");

    // Not applied: same leaf process, same config file, same URL dialed, uplink still attached.
    // A few refreshes pass first, so a late silent apply would show.
    await new Promise((r) => setTimeout(r, 3 * 2_000));
    const held = await readyWhen(site.url, (b) => checkOf(b, "sync").state === "warn", { path: "/ready", after: new Date(), withinMs: 10_000 });
    expect(leafPid(checkOf(held.body, "bus_local").detail)).toBe(pid);
    expect(checkOf(held.body, "hub_uplink").state).toBe("ok");
    expect(checkOf(held.body, "bus").state).toBe("ok");
    expect(leafConf()).toBe(confBefore);
    expect(appliedFile().hub_leaf_url).toBe(oldUrl);
    expect(appliedFile().hub_domain).toBe("hub");
    const dialed = await leafRemoteUrls();
    expect(dialed.join(" ")).toContain(`127.0.0.1:${bus.ports.leafnode}`);
    expect(dialed.join(" ")).not.toContain("localhost");
    expect(await hubLeafNames()).toContain(site.gatewayCode);
    expect(site.agent.logs.some((l) => (l.msg === "gateway: leaf configured" || l.msg === "gateway: leaf server started") && Date.parse(String(l.time)) >= changed)).toBe(false);

    // Account tokens are still applied meanwhile: a revocation at the hub reaches the site by a reload.
    const revoked = await site.device();
    const nc = await site.atSite(revoked.creds);
    await site.owner.collection("bus_users").update(revoked.id, { revoke: true });
    expect(await closedWithin(nc, 30_000), "a revocation does not reach a drifted site").toBe(true);
    expect(await busAccepts(site.leafUrl, revoked.creds)).toBe(false);
    expect(leafPid(checkOf((await readyWhen(site.url, () => true, { path: "/ready", after: new Date() })).body, "bus_local").detail)).toBe(pid);

    // The operator's consent: the leaf restarts on the hub's current values.
    const since = Date.now();
    const done = spawnSync(process.execPath, [AGENT_BUNDLE, "gateway", "reconfigure", "--state-dir", site.stateDir], { encoding: "utf8", timeout: 20_000 });
    expect(done.status, done.stderr).toBe(0);
    const configured = await site.agent.waitForLog((l) => l.msg === "gateway: leaf configured" && Date.parse(String(l.time)) >= since, 20_000);
    expect(configured.hub_leaf_url).toBe(newUrl);
    expect(configured.hub_domain).toBe(NEW_DOMAIN);
    // A probe begun before the restart may still be served after it: wait for one that sees the new leaf.
    const newLeafOk = (b: Parameters<typeof checkOf>[0]) => allOk(GATEWAY_CHECKS)(b) && leafPid(checkOf(b, "bus_local").detail) !== pid;
    await readyWhen(site.url, newLeafOk, { path: "/ready", after: new Date(), withinMs: 60_000 });
    console.log(`agent gateway reconfigure -> leaf restarted on the new values, all gateway checks ok: ${Date.now() - since} ms`);
    expect(appliedFile().hub_leaf_url).toBe(newUrl);
    expect(appliedFile().hub_domain).toBe(NEW_DOMAIN);
    expect(leafConf()).toContain(newUrl);
    expect((await leafRemoteUrls()).join(" ")).toContain(`localhost:${bus.ports.leafnode}`);
    expect(await hubLeafNames()).toContain(site.gatewayCode);
  });
});
