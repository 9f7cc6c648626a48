// The manager against a stand-in nebula (a shell script): what it runs, reloads, restarts, rolls back and
// kills, without network namespaces. The real nebula is e2e/agent/overlay.test.ts.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readIfPresent } from "../lib/files";
import { createLogger } from "../lib/log";
import { alive, until } from "../lib/test-support";
import { overlayOutcome } from "./check";
import { overlayFiles } from "./config-files";
import { createOverlayManager, type OverlayManager } from "./manager";
import type { NebulaCommand } from "./nebula-process";

// Records its pid and a grandchild's in the config's folder; reports a lighthouse handshake when the config
// says UP (at start and on SIGHUP); exits 3 at once when it says CRASH; `-test` refuses REFUSE.
const FAKE_NEBULA = `#!/bin/sh
if [ "$1" = "-test" ]; then
  if grep -q REFUSE "$3"; then echo 'level=ERROR msg="bad config" error="refused by the stand-in"'; exit 1; fi
  exit 0
fi
cfg="$2"; dir=$(dirname "$cfg")
echo $$ >> "$dir/pids"
sleep 1000 & echo $! >> "$dir/children"
up() { grep -q 'state: UP' "$cfg" && echo 'level=INFO msg="Handshake message received" vpnAddrs=[10.9.0.1] from=192.0.2.1:4242'; }
trap 'echo "level=INFO msg=reloaded"; up' HUP
grep -q 'state: CRASH' "$cfg" && exit 3
up
while :; do sleep 0.05; done
`;

const config = (state: string, firewall = "icmp") =>
  `static_host_map:\n  "10.9.0.1": ["192.0.2.1:4242"]\nlighthouse:\n  hosts: ["10.9.0.1"]\nfirewall:\n  inbound: [{proto: ${firewall}}]\nfake:\n  state: ${state}\n`;

describe("overlay manager (stand-in nebula)", () => {
  let dir = "";
  let manager: OverlayManager;
  const lines: string[] = [];
  const pids = () => readFileSync(join(dir, "overlay", "pids"), "utf8").trim().split("\n").map(Number);
  const files = () => overlayFiles(join(dir, "overlay"));
  const make = (handshakeTimeoutMs = 400, nebula: NebulaCommand = { binary: join(dir, "nebula") }) =>
    createOverlayManager({ nebula, overlayDir: join(dir, "overlay"), handshakeTimeoutMs, logger: createLogger((l) => lines.push(l), "debug") });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "overlay-manager-"));
    writeFileSync(join(dir, "nebula"), FAKE_NEBULA);
    chmodSync(join(dir, "nebula"), 0o755);
    lines.length = 0;
    manager = make();
  });

  afterEach(async () => {
    await manager.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the first config, keeps it as last good on the lighthouse handshake, and reloads a firewall change in place", async () => {
    expect(await manager.apply(config("UP"))).toBe("restarted");
    await until(() => manager.status().tunnels === 1 && readIfPresent(files().lastGood) === config("UP"));
    expect(overlayOutcome(true, manager.status(), "c").state).toBe("ok");
    expect(await manager.apply(config("UP"))).toBe("unchanged");
    expect(await manager.apply(config("UP", "any"))).toBe("reloaded");
    await until(() => readIfPresent(files().lastGood) === config("UP", "any"));
    await until(() => lines.some((l) => l.includes("msg=reloaded")));
    expect(pids()).toHaveLength(1);
  });

  it("keeps a config that names no lighthouse at once, and says that no handshake was awaited", async () => {
    const lonely = "firewall:\n  inbound: [{proto: icmp}]\nfake:\n  state: UP\n";
    expect(await manager.apply(lonely)).toBe("restarted");
    await until(() => readIfPresent(files().lastGood) === lonely);
    expect(lines.some((l) => l.includes("config kept: it names no lighthouse to wait for"))).toBe(true);
    expect(lines.some((l) => l.includes("confirmed by a lighthouse handshake"))).toBe(false);
  });

  it("rolls back to the last good config when the new one brings no handshake in time, and does not retry it", async () => {
    await manager.apply(config("UP"));
    await until(() => readIfPresent(files().lastGood) !== undefined);
    const t0 = Date.now();
    expect(await manager.apply(config("NOWHERE"))).toBe("restarted");
    await until(() => manager.status().rejected !== null);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(readFileSync(files().config, "utf8")).toBe(config("UP"));
    await until(() => manager.status().tunnels === 1);
    expect(overlayOutcome(true, manager.status(), "c")).toMatchObject({ state: "warn", detail: expect.stringMatching(/rolled back/) });
    expect(await manager.apply(config("NOWHERE"))).toBe("unchanged");
    // A different text is tried (over the rolled-back one: a firewall change, so a reload) and clears the warning.
    expect(await manager.apply(config("UP", "any"))).toBe("reloaded");
    expect(manager.status().rejected).toBeNull();
  });

  it("keeps the very first config when it brings no handshake: nothing to return to, the check warns", async () => {
    expect(await manager.apply(config("NOWHERE"))).toBe("restarted");
    await until(() => manager.status().unproven);
    expect(manager.status().running).toBe(true);
    expect(readFileSync(files().config, "utf8")).toBe(config("NOWHERE"));
    expect(readIfPresent(files().lastGood)).toBeUndefined();
    expect(overlayOutcome(true, manager.status(), "c").state).toBe("warn");
  });

  it("refuses what nebula -test refuses and keeps running the current config", async () => {
    await manager.apply(config("UP"));
    await until(() => manager.status().tunnels === 1);
    expect(await manager.apply(config("REFUSE"))).toBe("refused");
    expect(readFileSync(files().config, "utf8")).toBe(config("UP"));
    expect(manager.status().rejected).toMatch(/refused by the stand-in/);
    expect(await manager.apply("pki: [unterminated")).toBe("refused");
    expect(pids()).toHaveLength(1);
  });

  it("restarts a nebula that exits, after a back-off, and reports it meanwhile", async () => {
    await manager.apply(config("CRASH"));
    await until(() => manager.status().exit !== null);
    expect(manager.status().running).toBe(false);
    expect(overlayOutcome(true, manager.status(), "c")).toMatchObject({ state: "warn", detail: "nebula exited (code 3); restarting in 1 s" });
    expect(pids()).toHaveLength(1);
    await until(() => pids().length === 2, 3_000);
    await until(() => manager.status().exit === "nebula exited (code 3); restarting in 2 s", 3_000);
  });

  it("tries a nebula that cannot start again after a back-off, and reports why meanwhile", async () => {
    await manager.stop();
    manager = make(400, { binary: join(dir, "nebula"), launcher: [join(dir, "missing")] });
    expect(await manager.apply(config("UP"))).toBe("restarted");
    expect(manager.status()).toMatchObject({ running: false, exit: expect.stringMatching(/^nebula could not start \(.*ENOENT.*\); restarting in 1 s$/) });
    await until(() => manager.status().exit?.endsWith("restarting in 2 s") ?? false, 3_000);
  });

  it("keeps a config nebula could not be run to test, tries it again by itself, and runs it once nebula is there", async () => {
    await manager.stop();
    const binary = join(dir, "nebula-installed-later");
    manager = make(400, { binary });
    expect(await manager.apply(config("UP"))).toBe("deferred");
    expect(manager.status()).toMatchObject({ configured: true, running: false });
    expect(overlayOutcome(true, manager.status(), "c")).toEqual({
      state: "warn",
      detail: expect.stringMatching(/could not be run \(spawn .*ENOENT\); the platform's config is tried again in 1 s$/),
      fix: "install nebula, or set overlay.nebula in the agent's config to its path; the agent tries the config again by itself",
    });
    expect(manager.status().rejected).toBeNull();
    writeFileSync(binary, FAKE_NEBULA);
    chmodSync(binary, 0o755);
    await until(() => manager.status().tunnels === 1, 3_000);
    expect(manager.status()).toMatchObject({ running: true, rejected: null, deferred: null });
    expect(readFileSync(files().config, "utf8")).toBe(config("UP"));
  });

  it("drops a config waiting for nebula once the platform serves the running one again", async () => {
    await manager.apply(config("UP"));
    await until(() => manager.status().tunnels === 1);
    const binary = join(dir, "nebula");
    rmSync(binary);
    expect(await manager.apply(config("UP", "any"))).toBe("deferred");
    expect(manager.status().deferred).toMatch(/could not be run/);
    expect(await manager.apply(config("UP"))).toBe("unchanged");
    expect(manager.status().deferred).toBeNull();
    writeFileSync(binary, FAKE_NEBULA);
    chmodSync(binary, 0o755);
    await new Promise((r) => setTimeout(r, 1_500)); // past the first retry's delay
    expect(readFileSync(files().config, "utf8")).toBe(config("UP"));
    expect(overlayOutcome(true, manager.status(), "c").state).toBe("ok");
  });

  it("runs the cached config.yml at start, marked cached until the platform serves it", async () => {
    await manager.apply(config("UP"));
    await until(() => readIfPresent(files().lastGood) !== undefined);
    await manager.stop();
    manager = make();
    await manager.start();
    await until(() => manager.status().tunnels === 1);
    expect(overlayOutcome(true, manager.status(), "c")).toMatchObject({ state: "warn", detail: expect.stringMatching(/cached/) });
    expect(await manager.apply(config("UP"))).toBe("unchanged");
    expect(overlayOutcome(true, manager.status(), "c").state).toBe("ok");
  });

  it("stops nebula as a process group: what it started goes too", async () => {
    await manager.apply(config("UP"));
    await until(() => readIfPresent(join(dir, "overlay", "children")) !== undefined);
    const [pid] = pids();
    const child = Number(readFileSync(join(dir, "overlay", "children"), "utf8").trim());
    expect(alive(pid) && alive(child)).toBe(true);
    await manager.stop();
    await until(() => !alive(pid) && !alive(child));
  });
});
