// Gateway mode as an operator runs it (issue 11): a hub from `bus export` plus the control plane, a
// gateway Thing enrolled and `agent run` with gateway.enabled, so the agent writes the leaf config from
// GET /api/me/leaf-config and runs the pinned nats-server as its child. Devices of the same organization
// connect to the leaf with their own creds. Decisions taken at the hub (a revocation, a suspension and its
// restore) reach them through the agent's leaf-config refresh; the hub's death leaves the site working and
// ready; the leaf's death fails bus_local until the agent has restarted it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteRelayStream } from "../../agent/src/gateway/kv/wire";
import { AGENT_BUNDLE } from "../harness/agent";
import { busAccepts, closedWithin, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { flows, startGatewaySite, type GatewaySite } from "../harness/gateway";
import { checkOf, getReady, readyWhen } from "../harness/readiness";

const PROMTOOL = "/usr/bin/promtool";
const REFRESH = "2s";
const UPLINK_RESTART_AFTER = "8s";

let bus: PlatformWithBus;
let site: GatewaySite;
let hubNc: NatsConnection;
let hubJsm: JetStreamManager;

beforeAll(async () => {
  bus = await startPlatformWithBus();
  site = await startGatewaySite(bus, { refresh: REFRESH, uplinkRestartAfter: UPLINK_RESTART_AFTER, kv: { mirrors: ["gw_cfg"], relays: ["gw_orders"] } });
  // The hub side of the buckets the gateway mirrors and relays, in the organization's account.
  hubNc = await site.atHub((await site.device()).creds);
  hubJsm = await jetstreamManager(hubNc);
  for (const bucket of ["gw_cfg", "gw_orders"]) await hubJsm.streams.add(siteRelayStream(bucket));
}, 120_000);
afterAll(async () => {
  await site?.stop();
  await bus?.stop();
});

const siteDevice = () => site.device();
const atSite = (creds: string): Promise<NatsConnection> => site.atSite(creds);
const ready = (name: string, state: string, withinMs?: number) => site.ready(name, state, withinMs);

/** The latest value of `key` in the key-value bucket `bucket` on the server `jsm` talks to. */
async function latest(jsm: JetStreamManager, bucket: string, key: string): Promise<string | undefined> {
  const msg = await jsm.streams.getMessage(`KV_${bucket}`, { last_by_subj: `$KV.${bucket}.${key}` }).catch(() => null);
  return msg && (msg.header?.get("KV-Operation") ?? "") === "" ? msg.string() : undefined;
}

describe("agent run in gateway mode", () => {
  it("configures and runs the leaf: bus (over the leaf), bus_local, hub_uplink and sync ok; the leaf is the Thing's server and domain", async () => {
    const { status, body } = await readyWhen(
      site.url,
      (b) => ["bus", "bus_local", "hub_uplink", "sync"].every((name) => checkOf(b, name).state === "ok"),
      { path: "/ready", withinMs: 30_000 },
    );
    expect(status).toBe(200);
    expect(checkOf(body, "bus").detail).toContain(site.leafUrl.replace("nats://", ""));
    expect(body.checks.map((c) => c.name)).toEqual(expect.arrayContaining(["bus_local", "hub_uplink", "sync"]));
    const varz = (await (await fetch(`http://127.0.0.1:${site.monitorPort}/varz`)).json()) as { server_name: string; jetstream?: { config?: { domain?: string } } };
    expect(varz.server_name).toBe(site.gatewayCode);
    expect(varz.jetstream?.config?.domain).toBe(site.gatewayCode);
    // The hub sees one leaf connection named after the Thing.
    const hubLeafz = (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/leafz`)).json()) as { leafs?: { name: string }[] };
    expect(hubLeafz.leafs?.map((l) => l.name)).toContain(site.gatewayCode);
    expect(site.agent.stderr()).not.toMatch(/SUAM|-----BEGIN NATS USER NKEY SEED/);
  });

  it("syncs key-value buckets inside agent run: a hub write reaches the site's mirror, a site write reaches the hub", async () => {
    await ready("hub_uplink", "ok");
    await jetstream(hubNc).publish("$KV.gw_cfg.mode", "eco");
    const device = await atSite((await siteDevice()).creds);
    const siteJsm = await jetstreamManager(device);
    expect(await eventually(async () => (await latest(siteJsm, "gw_cfg", "mode")) === "eco", 30_000)).toBe(true);
    await jetstream(device).publish("$KV.gw_orders.o-1", "42");
    expect(await eventually(async () => (await latest(hubJsm, "gw_orders", "o-1")) === "42", 30_000)).toBe(true);
    const synced = await readyWhen(site.url, (b) => checkOf(b, "sync").state === "ok", { path: "/ready", withinMs: 30_000 });
    expect(synced.status).toBe(200);
    const scrape = await (await fetch(`${site.url}/metrics`)).text();
    expect(scrape).toContain('agent_edge_sync_up{bucket="gw_cfg",direction="hub_to_site"} 1');
    expect(scrape).toContain('agent_edge_sync_up{bucket="gw_orders",direction="site_to_hub"} 1');
    expect(scrape).toMatch(/agent_edge_relay_pending\{bucket="gw_orders"\} 0/);
  });

  it("promtool accepts the gateway's scrape, with the agent_edge_* series of the leaf", async () => {
    const scraped = await (await fetch(`${site.url}/metrics`)).text();
    expect(scraped).toMatch(/^agent_edge_bus_connected 1$/m);
    expect(scraped).toMatch(/^agent_edge_bus_connections [1-9]\d*$/m);
    expect(scraped).toMatch(/^agent_edge_hub_uplink_connected 1$/m);
    expect(scraped).toMatch(/^agent_edge_persistence_bytes \d+$/m);
    expect(existsSync(PROMTOOL), "promtool missing: run scripts/test-deps.sh").toBe(true);
    const checked = spawnSync(PROMTOOL, ["check", "metrics"], { input: scraped, encoding: "utf8" });
    expect(checked.status, `${checked.stdout}${checked.stderr}`).toBe(0);
  });

  it("a site client revoked at the hub is dropped by the leaf within 60 s; the other client and the uplink stay", async () => {
    const revoked = await siteDevice();
    const kept = await siteDevice();
    const gone = await atSite(revoked.creds);
    const stays = await atSite(kept.creds);
    expect(await flows(gone, stays, "site.before")).toBe(true);

    const decided = Date.now();
    await site.owner.collection("bus_users").update(revoked.id, { revoke: true });
    expect(await closedWithin(gone, 60_000), "the revoked client is still connected at the site").toBe(true);
    const droppedAfter = Date.now() - decided;
    console.log(`revocation at the hub -> site client dropped: ${droppedAfter} ms (leaf_config_interval ${REFRESH})`);
    expect(droppedAfter).toBeLessThan(60_000);
    expect(await busAccepts(site.leafUrl, revoked.creds)).toBe(false);

    expect(stays.isClosed()).toBe(false);
    const other = await atSite((await siteDevice()).creds);
    expect(await flows(other, stays, "site.after")).toBe(true);
    expect(checkOf((await getReady(site.url, {}, "/ready")).body, "hub_uplink").state).toBe("ok");
    expect(site.agent.logs.some((l) => l.msg === "gateway: leaf server started" && Date.parse(String(l.time)) > decided)).toBe(false);
  });

  it("the organization suspended drops every site client within 60 s; restored, they connect again within 60 s", async () => {
    const device = await siteDevice();
    const nc = await atSite(device.creds);
    const suspended = Date.now();
    await site.operator.collection("organizations").update(site.organizationId, { active: false });
    try {
      expect(await closedWithin(nc, 60_000), "a site client is still connected in a suspended organization").toBe(true);
      console.log(`organization suspended -> site client dropped: ${Date.now() - suspended} ms`);
      expect(await busAccepts(site.leafUrl, device.creds)).toBe(false);
    } finally {
      await site.operator.collection("organizations").update(site.organizationId, { active: true });
    }
    const restored = Date.now();
    expect(await eventually(() => busAccepts(site.leafUrl, device.creds), 60_000), "the site does not admit the client after the restore").toBe(true);
    console.log(`organization restored -> site client admitted: ${Date.now() - restored} ms`);
    await ready("hub_uplink", "ok", 60_000);
    await ready("bus", "ok", 60_000);
  });

  it("the hub killed: hub_uplink warns within 20 s, /ready stays 200, site-local traffic flows; the hub back: the uplink returns", async () => {
    const a = await atSite((await siteDevice()).creds);
    const b = await atSite((await siteDevice()).creds);
    await ready("hub_uplink", "ok");
    const killed = Date.now();
    await bus.stopNats();
    try {
      const islanded = await ready("hub_uplink", "warn", 20_000);
      console.log(`hub killed -> hub_uplink warn: ${Date.now() - killed} ms`);
      expect(islanded.status).toBe(200);
      expect(checkOf(islanded.body, "hub_uplink").detail).toContain("islanded");
      expect(checkOf(islanded.body, "bus").state).toBe("ok");
      expect(checkOf(islanded.body, "bus_local").state).toBe("ok");
      expect(await flows(a, b, "site.islanded")).toBe(true);
      const scraped = await (await fetch(`${site.url}/metrics`)).text();
      expect(scraped).toMatch(/^agent_edge_hub_uplink_connected 0$/m);
      expect(scraped).toMatch(/^agent_edge_bus_connected 1$/m);
    } finally {
      await bus.startNats();
    }
    await ready("hub_uplink", "ok", 30_000);
  });

  it("the leaf killed: bus_local fails and /ready answers 503; the agent starts it again and the site is back", async () => {
    const before = await ready("bus_local", "ok");
    const pid = Number(/pid (\d+)/.exec(checkOf(before.body, "bus_local").detail ?? "")?.[1]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    const down = await ready("bus_local", "fail", 15_000);
    expect(down.status).toBe(503);
    const back = await ready("bus_local", "ok", 30_000);
    expect(checkOf(back.body, "bus_local").detail).not.toContain(`pid ${pid})`);
    await ready("hub_uplink", "ok", 30_000);
    await ready("bus", "ok", 45_000);
    expect(site.agent.child.exitCode).toBeNull();
  });

  it("an uplink the hub refuses while its leaf port accepts: the leaf is reloaded, then restarted, both logged and named in hub_uplink", async () => {
    // The gateway's own bus identity suspended: the hub refuses the uplink's creds, its leaf port still accepts.
    await site.owner.collection("bus_users").update(site.gatewayBusUser, { active: false });
    try {
      const reloaded = await readyWhen(site.url, (b) => /leaf reloaded at/.test(checkOf(b, "hub_uplink").detail ?? ""), { path: "/ready", withinMs: 40_000 });
      // hub_uplink only warns; /ready is 503 here for another reason: the suspended identity is the agent's own, so bus fails.
      expect(checkOf(reloaded.body, "hub_uplink").state).toBe("warn");
      const restarted = await readyWhen(site.url, (b) => /leaf restarted at/.test(checkOf(b, "hub_uplink").detail ?? ""), { path: "/ready", withinMs: 40_000 });
      expect(checkOf(restarted.body, "hub_uplink").state).toBe("warn");
      expect(site.agent.logs.some((l) => l.msg === "gateway: reloading the leaf server" && String(l.reason).includes("leaf port"))).toBe(true);
      expect(site.agent.logs.some((l) => l.msg === "gateway: restarting the leaf server" && String(l.reason).includes("leaf port"))).toBe(true);
    } finally {
      await site.owner.collection("bus_users").update(site.gatewayBusUser, { active: true });
    }
    await ready("hub_uplink", "ok", 60_000);
    await ready("bus", "ok", 60_000);
  });

  it("agent gateway reconfigure: the running agent writes the leaf config anew from the hub and restarts the leaf", async () => {
    const since = Date.now();
    const done = spawnSync(process.execPath, [AGENT_BUNDLE, "gateway", "reconfigure", "--state-dir", site.stateDir], { encoding: "utf8", timeout: 20_000 });
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain("applied.json");
    await site.agent.waitForLog((l) => l.msg === "gateway: leaf configured" && Date.parse(String(l.time)) >= since, 20_000);
    await site.agent.waitForLog((l) => l.msg === "gateway: leaf server started" && Date.parse(String(l.time)) >= since, 20_000);
    await ready("bus_local", "ok");
    await ready("hub_uplink", "ok");
    await ready("sync", "ok");
  });
});
