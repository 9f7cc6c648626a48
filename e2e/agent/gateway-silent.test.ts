// A gateway whose uplink to the hub's leafnode port is silently dropped (issue 11): no RST, no FIN, the
// packets just vanish, as when a site's WAN link dies somewhere past its router. The control plane, the
// hub and the agent with its leaf stay in the host namespace; the leaf reaches the hub's leaf port only
// across a veth pair into a namespace, where a relay hands the bytes on to the hub (over a unix socket,
// which crosses namespaces). Cutting the namespace's end of the pair silences the path. Only the leaf's
// own pings (ping_interval, ping_max in its config) can tell; hub_uplink must warn within 60 s while the
// site keeps working and /ready stays 200, and the uplink must come back by itself once the link does.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAF_PINGS } from "../../agent/src/gateway/leaf-files";
import { UPLINK_POLL_MS } from "../../agent/src/gateway/uplink";
import { parseDuration } from "../../common/config/duration";
import { busAccepts, connectWithCreds, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { flows, startGatewaySite, type GatewaySite } from "../harness/gateway";
import { createLink, destroyLink, setLinkUp, startRelay, stopProcess, type Link } from "../harness/netns";
import { checkOf, getReady, readyWhen } from "../harness/readiness";

const UPLINK_RESTART_AFTER = "8s";
/** The hub's leaf port as the gateway sees it, inside the namespace. */
const RELAYED_LEAF_PORT = 7422;
/**
 * The bound leaf-files.ts argues for a silent drop: the leaf closes an uplink whose pings go unanswered
 * ping_max + 1 intervals in a row; the agent sees that at its next /leafz look, and /ready serves it at
 * the next probe (observability.interval 500 ms here).
 */
const SILENT_DROP_BOUND_MS = (LEAF_PINGS.max + 1) * parseDuration(LEAF_PINGS.interval) + UPLINK_POLL_MS + 500;
/** Timers and looks late on a loaded machine (two cores shared by several test runs). */
const SCHEDULING_ALLOWANCE_MS = 2_000;

const scratch = mkdtempSync(join(tmpdir(), "agent-gateway-silent-"));
let link: Link | undefined;
const relays: ChildProcess[] = [];
let bus: PlatformWithBus | undefined;
let site: GatewaySite;

beforeAll(async () => {
  link = createLink(`sl${process.pid}`);
  bus = await startPlatformWithBus({ env: { PLATFORM_BUS_LEAF_URL: `nats-leaf://${link.nsAddress}:${RELAYED_LEAF_PORT}` } });
  const socket = join(scratch, "hub-leaf.sock");
  relays.push(await startRelay(socket, `127.0.0.1:${bus.ports.leafnode}`));
  relays.push(await startRelay(`${link.nsAddress}:${RELAYED_LEAF_PORT}`, socket, link.ns));
  site = await startGatewaySite(bus, { refresh: "2s", uplinkRestartAfter: UPLINK_RESTART_AFTER });
}, 120_000);
afterAll(async () => {
  try {
    await site?.stop();
    for (const relay of relays) await stopProcess(relay);
    await bus?.stop();
  } finally {
    destroyLink(link);
    rmSync(scratch, { recursive: true, force: true });
  }
});

const hubLeafNames = async (): Promise<string[]> => {
  const leafz = (await (await fetch(`http://127.0.0.1:${bus?.ports.monitor}/leafz`)).json()) as { leafs?: { name: string }[] };
  return leafz.leafs?.map((l) => l.name) ?? [];
};

describe("a gateway's uplink silently dropped", () => {
  it("the uplink runs across the namespace link", async () => {
    const { status, body } = await readyWhen(
      site.url,
      (b) => ["bus", "bus_local", "hub_uplink", "sync"].every((name) => checkOf(b, name).state === "ok"),
      { path: "/ready", withinMs: 30_000 },
    );
    expect(status).toBe(200);
    expect(checkOf(body, "hub_uplink").detail).toContain(`${link?.nsAddress}:${RELAYED_LEAF_PORT}`);
    expect(await hubLeafNames()).toContain(site.gatewayCode);
  });

  it("hub_uplink warns within the ping bound (< 60 s), /ready stays 200, the site works; the link back, the uplink returns by itself", async () => {
    if (!link || !bus) throw new Error("no link");
    const a = await site.atSite((await site.device()).creds);
    const b = await site.atSite((await site.device()).creds);
    const atHub = await connectWithCreds(bus.busUrl, (await site.device()).creds);
    try {
      await site.ready("hub_uplink", "ok");
      expect(await flows(a, atHub, "site.to.hub.before")).toBe(true);

      const dropped = Date.now();
      setLinkUp(link, false);
      let restored: number | undefined;
      try {
        // Silent: nothing tells the leaf at once (a closed connection would show within one /leafz look).
        await new Promise((r) => setTimeout(r, 2 * UPLINK_POLL_MS));
        expect(checkOf((await getReady(site.url, {}, "/ready")).body, "hub_uplink").state).toBe("ok");

        const islanded = await site.ready("hub_uplink", "warn", 60_000);
        const warnedAfter = Date.now() - dropped;
        console.log(`uplink silently dropped -> hub_uplink warn: ${warnedAfter} ms (ping_interval ${LEAF_PINGS.interval}, ping_max ${LEAF_PINGS.max}: bound ${SILENT_DROP_BOUND_MS} ms)`);
        expect(warnedAfter).toBeLessThanOrEqual(SILENT_DROP_BOUND_MS + SCHEDULING_ALLOWANCE_MS);
        expect(warnedAfter).toBeLessThan(60_000);
        expect(islanded.status).toBe(200);
        expect(checkOf(islanded.body, "hub_uplink").detail).toContain("islanded");
        expect(checkOf(islanded.body, "bus").state).toBe("ok");
        expect(checkOf(islanded.body, "bus_local").state).toBe("ok");
        expect(await flows(a, b, "site.islanded")).toBe(true);
        // The leaf admits a client from the tokens it holds while the hub is out of reach.
        expect(await busAccepts(site.leafUrl, (await site.device()).creds)).toBe(true);
        const scraped = await (await fetch(`${site.url}/metrics`)).text();
        expect(scraped).toMatch(/^agent_edge_hub_uplink_connected 0$/m);

        // The hub's port does not answer across the dead link: no reload or restart would help, none is tried.
        const looked = await readyWhen(site.url, (body) => /leaf port does not accept/.test(checkOf(body, "hub_uplink").detail ?? ""), {
          path: "/ready",
          withinMs: parseDuration(UPLINK_RESTART_AFTER) + 15_000,
        });
        expect(looked.status).toBe(200);
        expect(checkOf(looked.body, "hub_uplink").detail).not.toMatch(/reloaded|restarted/);
      } finally {
        setLinkUp(link, true);
        restored = Date.now();
      }
      await site.ready("hub_uplink", "ok", 60_000);
      console.log(`link restored -> hub_uplink ok: ${Date.now() - restored} ms`);
      expect(await hubLeafNames()).toContain(site.gatewayCode);
      expect(await flows(a, atHub, "site.to.hub.after")).toBe(true);
      // While the link was dead the hub's port did not accept, so no remedy was tried. (After the restore, a leaf
      // slow to redial on a loaded machine may meet the remedy rule legitimately: the port accepts by then.)
      const islandedUntil = restored;
      const remedies = site.agent.logs.filter((l) => {
        const at = Date.parse(String(l.time));
        return /gateway: (reloading|restarting) the leaf server/.test(l.msg) && at >= dropped && at < islandedUntil;
      });
      expect(remedies).toEqual([]);
    } finally {
      await atHub.close().catch(() => {});
    }
  }, 180_000);
});
