// The setting the overlay e2e tests share: a lighthouse and two hosts (lh, a, b) in their own network
// namespaces on one bridge (netns.ts), and the three overlay hosts the platform issues for them in the
// world's org A network; useOverlayStar adds the scratch folder and the plain nebula processes a test runs
// in the namespaces, torn down after all.
import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll } from "vitest";
import { NEBULA } from "./nebula";
import { createStar, destroyStar, spawnIn, stopProcess, type Star } from "./netns";
import type { World } from "./world";

export const LH_UNDERLAY = "192.0.2.1";
export type StarRole = "lh" | "a" | "b";

/** The three namespaces; names start with `prefix` and the pid, so parallel runs never share one. Throws when the machine cannot. */
export function createOverlayStar(prefix: string): { star: Star; ns: Record<StarRole, string> } {
  const ping = spawnSync("ping", ["-V"], { encoding: "utf8", timeout: 5_000 });
  if (ping.error || ping.status !== 0) throw new Error("`ping` is not installed: install iputils-ping (the issued firewall admits only ICMP inbound)");
  const star = createStar(`${prefix}${process.pid}`, [LH_UNDERLAY, "192.0.2.2", "192.0.2.3"]);
  const [lh, a, b] = star.members.map((m) => m.name);
  return { star, ns: { lh, a, b } };
}

/** Issues the lighthouse first (public endpoint LH_UNDERLAY:4242), so a's and b's configs name it, then a and b. */
export async function issueStarHosts(w: World, prefix: string, overlayIp: Record<StarRole, string>): Promise<Record<StarRole, RecordModel>> {
  const hosts = (await w.client("owner")).collection("overlay_hosts");
  const base = { organization: w.a.organization.id, network: w.a.overlay_networks.id, active: true };
  const lh = await hosts.create({ ...base, name: `${prefix}-lh`, overlay_ip: overlayIp.lh, is_lighthouse: true, public_endpoint: `${LH_UNDERLAY}:4242` });
  const a = await hosts.create({ ...base, name: `${prefix}-a`, overlay_ip: overlayIp.a });
  const b = await hosts.create({ ...base, name: `${prefix}-b`, overlay_ip: overlayIp.b });
  return { lh, a, b };
}

export interface PlainNebula {
  child: ChildProcess;
  log: () => string;
}

export interface OverlayStarSession {
  /** The namespaces of the star (set before the first test). */
  readonly ns: Record<StarRole, string>;
  /** A scratch folder for configs and state, removed after all. */
  readonly dir: string;
  /** Throws why the star could not be set up: the tests FAIL, never skip, without network namespaces. */
  requireNet(): void;
  /** Runs (or re-runs, stopping the one before) plain nebula in `role`'s namespace with a config as issued, once `nebula -test` accepts it. */
  runPlain(role: StarRole, configYaml: string): Promise<PlainNebula>;
  /** The last `chars` of each plain nebula's output, for failure messages. */
  plainLogs(chars: number): string[];
}

/**
 * The star for the tests of the enclosing describe: created before all (`prefix` names its namespaces, the
 * scratch folder is `<what>-*`), its plain nebula processes stopped and the star destroyed after all (after
 * the hooks the describe registers later: vitest runs after-hooks in reverse).
 */
export function useOverlayStar(prefix: string, what: string): OverlayStarSession {
  let star: Star | undefined;
  let setupError: Error | undefined;
  let ns = {} as Record<StarRole, string>;
  let dir = "";
  let configs = 0;
  const plain = new Map<StarRole, PlainNebula>();
  beforeAll(() => {
    try {
      ({ star, ns } = createOverlayStar(prefix));
      dir = mkdtempSync(join(tmpdir(), `${what}-`));
    } catch (err) {
      setupError = err as Error;
    }
  });
  afterAll(async () => {
    for (const p of plain.values()) await stopProcess(p.child);
    plain.clear();
    destroyStar(star);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get ns() {
      return ns;
    },
    get dir() {
      return dir;
    },
    requireNet() {
      if (setupError) throw new Error(`${what} tests need network namespaces: ${setupError.message}`);
    },
    async runPlain(role, configYaml) {
      await stopProcess(plain.get(role)?.child);
      plain.delete(role);
      // A file per run: a re-run never rewrites the config a stopping nebula may still read.
      const path = join(dir, `${configs++}-${role}.yml`);
      writeFileSync(path, configYaml, { mode: 0o600 });
      const tested = spawnSync(NEBULA, ["-test", "-config", path], { encoding: "utf8", timeout: 15_000 });
      if (tested.status !== 0) throw new Error(`nebula -test refused ${role}'s config: ${tested.stdout}${tested.stderr}`);
      const p = spawnIn(ns[role], NEBULA, ["-config", path]);
      plain.set(role, p);
      return p;
    },
    plainLogs: (chars) => [...plain.entries()].map(([role, p]) => `--- nebula ${role} ---\n${p.log().slice(-chars)}`),
  };
}
