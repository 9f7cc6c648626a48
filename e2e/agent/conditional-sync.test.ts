// The agent's platform sync polling the real control plane conditionally (issue 37 item 3): an unchanged
// poll is answered 304 (counted by the control plane's own /metrics), no key material is fetched, and a
// change still arrives by polling alone: a revoke-and-replace and a peer's blocklisting are adopted
// within a few short intervals, with no requested sync.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformClient } from "../../agent/src/platform/client";
import { enroll } from "../../agent/src/platform/enroll";
import { readSession } from "../../agent/src/platform/session";
import { startPlatformSync, type PlatformSync } from "../../agent/src/platform/sync";
import { createLogger } from "../../agent/src/lib/log";
import { statePaths } from "../../agent/src/state-paths";
import { createThing } from "../harness/agent";
import { eventually } from "../harness/bus";
import { PASSWORD, useWorld } from "../harness/world";

const { platform, world: w } = useWorld();
let scratch = "";
let sync: PlatformSync | undefined;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "agent-conditional-"));
});
afterAll(() => {
  sync?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const INTERVAL_MS = 300;

/** platform_http_requests_total of GET `route` in a status class, from the control plane's /metrics. */
async function served(route: string, status: string): Promise<number> {
  const text = await (await fetch(`${platform.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("platform_http_requests_total{") && l.includes(`route="${route}"`) && l.includes('method="GET"') && l.includes(`status="${status}"`));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("agent platform sync with conditional polls", () => {
  it("polls with If-None-Match (304s, nothing fetched), and still adopts a revoke-and-replace and a peer's blocklisting by polling alone", async () => {
    const made = await createThing(w, {
      name: "conditional",
      bus: { mode: "auto" },
      overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: "10.42.92.1" },
    });
    const stateDir = join(scratch, "conditional");
    const client = createPlatformClient(platform.url, { timeoutMs: 5_000 });
    await enroll(client, made.email, made.password, stateDir);
    const paths = statePaths(stateDir);
    const session = readSession(paths.session);
    if (!session) throw new Error("no session after enroll");
    const creds: string[] = [];
    const configs: string[] = [];
    sync = startPlatformSync({ session, paths, client, intervalMs: INTERVAL_MS, logger: createLogger(() => {}, "debug") });
    sync.onBusCreds((c) => creds.push(c));
    sync.onOverlayConfig((c) => configs.push(c));

    const unchangedBefore = await served("/api/me/identity", "3xx");
    sync.start();
    const polled = await eventually(async () => (await served("/api/me/identity", "3xx")) - unchangedBefore >= 5, 20_000);
    expect(polled, "the agent's polls were not answered 304").toBe(true);
    // Enrollment left the material on disk: nothing downloaded, only the overlay told once its config stands.
    expect(creds).toEqual([]);
    expect(configs).toHaveLength(1);
    expect(sync.status()).toMatchObject({ consecutiveFailures: 0, busUserActive: true, overlayHostActive: true });

    // Revoke and replace at the control plane; the agent is told nothing: its next poll sees it.
    const thing = await w.su.collection("things").getOne(made.id);
    await w.su.collection("bus_users").update(thing.bus_user, { revoke: true });
    const replaced = (await w.su.collection("bus_users").getOne(thing.bus_user)).creds_file as string;
    expect(await eventually(async () => creds.includes(replaced), 10_000)).toBe(true);
    expect(readFileSync(paths.busCreds, "utf8")).toBe(replaced);

    // A peer under the same CA deactivated: only the CA's blocklist moves, and the agent's config with it.
    const peerHost = await w.su.collection("overlay_hosts").create({ organization: w.a.organization.id, network: w.a.overlay_networks.id, name: "conditional-peer", overlay_ip: "10.42.92.2", active: true });
    const peer = await w.su.collection("things").create({ organization: w.a.organization.id, name: "conditional-peer", active: true, password: PASSWORD, passwordConfirm: PASSWORD, overlay_host: peerHost.id });
    await w.su.collection("things").update(peer.id, { active: false });
    expect(await eventually(async () => configs.some((c) => c.includes(peerHost.fingerprint as string)), 10_000)).toBe(true);
    expect(sync.status().consecutiveFailures).toBe(0);
  });
});
