import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../lib/log";
import { alive, until } from "../lib/test-support";
import { startLeafProcess, type LeafProcess } from "./leaf-process";

// A stand-in for nats-server that, like it, takes a moment to shut down on SIGTERM.
const SLOW_TO_STOP = '#!/bin/sh\ntrap "sleep 0.5; exit 0" TERM\nwhile true; do sleep 0.05; done\n';

let dir: string;
let leaf: LeafProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "leaf-process-"));
});
afterEach(async () => {
  await leaf?.stop();
  leaf = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function startFake(): LeafProcess {
  const natsServer = join(dir, "nats-server");
  writeFileSync(natsServer, SLOW_TO_STOP);
  chmodSync(natsServer, 0o755);
  return startLeafProcess({ natsServer, configPath: join(dir, "leaf.conf"), logger: createLogger(() => undefined) });
}

const runningPid = (process: LeafProcess) => {
  const state = process.state();
  return state.running ? state.pid : undefined;
};

describe("the leaf process", () => {
  it("reports a restart from its first moment: the old process is never reported running while it shuts down", async () => {
    leaf = startFake();
    leaf.ensureRunning();
    await until(() => runningPid(leaf!) !== undefined);
    const oldPid = runningPid(leaf)!;

    const restarted = leaf.restart("the leaf configuration was written anew");
    expect(leaf.state()).toMatchObject({ running: false, reason: "restarting: the leaf configuration was written anew" });
    expect(alive(oldPid)).toBe(true);
    await restarted;
    expect(alive(oldPid)).toBe(false);
    await until(() => runningPid(leaf!) !== undefined);
    expect(runningPid(leaf)).not.toBe(oldPid);
  });
});
