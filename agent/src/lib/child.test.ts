import { describe, expect, it } from "vitest";
import { runBounded, startManaged } from "./child";
import { alive, until } from "./test-support";

describe("runBounded", () => {
  it("collects output, input and the exit code", async () => {
    const result = await runBounded("sh", ["-c", "read line; echo got $line; echo err >&2; exit 3"], { timeoutMs: 5_000, input: "hello\n" });
    expect(result).toEqual({ code: 3, signal: null, stdout: "got hello\n", stderr: "err\n", timedOut: false });
  });

  it("kills the whole group at the deadline, grandchildren included", async () => {
    const started = Date.now();
    const result = await runBounded("sh", ["-c", "sleep 30 & echo $!; wait"], { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    expect(Date.now() - started).toBeLessThan(10_000);
    const grandchild = Number(result.stdout.trim());
    await until(() => !alive(grandchild), 2_000);
  });

  it("rejects when the command does not exist", async () => {
    await expect(runBounded("/nonexistent/binary", [], { timeoutMs: 1_000 })).rejects.toThrow(/ENOENT/);
  });
});

describe("startManaged", () => {
  it("forwards lines, signals the group and stops with SIGTERM", async () => {
    const lines: string[] = [];
    const child = await startManaged("sh", ["-c", 'trap "echo reloaded" HUP; echo started; while true; do sleep 0.05; done'], {
      onLine: (stream, line) => lines.push(`${stream}:${line}`),
    });
    await until(() => lines.includes("stdout:started"), 5_000);
    child.signal("SIGHUP");
    await until(() => lines.includes("stdout:reloaded"), 5_000);
    expect(child.running()).toBe(true);
    await child.stop();
    expect(child.running()).toBe(false);
    expect((await child.exited).signal).toBe("SIGTERM");
  });

  it("kills a child that ignores SIGTERM after the grace", async () => {
    const child = await startManaged("sh", ["-c", 'trap "" TERM; while true; do sleep 0.05; done']);
    await new Promise((r) => setTimeout(r, 100));
    await child.stop(200);
    expect((await child.exited).signal).toBe("SIGKILL");
    expect(alive(child.pid)).toBe(false);
  });

  it("throws when the binary does not exist", async () => {
    await expect(startManaged("/nonexistent/nebula", [])).rejects.toThrow(/ENOENT/);
  });
});
