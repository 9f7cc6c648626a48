// The supervisor runs in the real bash, with a stand-in for litestream that records each start.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { replicationSupervisorArgs } from "./supervisor";

const scratch = mkdtempSync(join(tmpdir(), "replication-supervisor-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in that appends "<args>" to `log`, then runs `body`. */
function standIn(name: string, body: string): { bin: string; log: string } {
  const bin = join(scratch, name);
  const log = join(scratch, `${name}.log`);
  writeFileSync(bin, `#!/bin/bash\necho "$*" >> ${JSON.stringify(log)}\n${body}\n`);
  chmodSync(bin, 0o755);
  return { bin, log };
}

const starts = (log: string): string[] => readFileSync(log, "utf8").trim().split("\n");
const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));

describe("replication supervisor", () => {
  it("passes binary and config as arguments, never inside the script", () => {
    const args = replicationSupervisorArgs("/opt/bin/litestream", "/srv/pb_data/.replication/litestream.yml");
    expect(args.slice(2)).toEqual(["replication-supervisor", "/opt/bin/litestream", "/srv/pb_data/.replication/litestream.yml"]);
    expect(args[1]).not.toContain("/srv/pb_data");
  });

  it("starts litestream again after it exits, and stops when the pipe closes", async () => {
    const { bin, log } = standIn("exits", "exit 3");
    const child = spawn("bash", replicationSupervisorArgs(bin, "/cfg.yml"), { stdio: ["pipe", "ignore", "pipe"] });
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    await new Promise((r) => setTimeout(r, 2_500));
    child.stdin?.end();
    await exited(child);
    expect(starts(log).length).toBeGreaterThanOrEqual(2);
    expect(starts(log)[0]).toBe("replicate -config /cfg.yml");
    expect(err).toContain("replication supervisor: litestream exited with status 3; starting it again in 1 s");
  });

  it("sends a running litestream SIGTERM when the pipe closes, and waits for it", async () => {
    const { bin, log } = standIn("runs", `trap 'echo stopped >> ${JSON.stringify(join(scratch, "runs.log"))}; exit 0' TERM\nwhile true; do sleep 0.05; done`);
    const child = spawn("bash", replicationSupervisorArgs(bin, "/cfg.yml"), { stdio: ["pipe", "ignore", "ignore"] });
    await new Promise((r) => setTimeout(r, 500));
    child.stdin?.end();
    await exited(child);
    expect(starts(log)).toEqual(["replicate -config /cfg.yml", "stopped"]);
  });
});
