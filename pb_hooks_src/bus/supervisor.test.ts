import { execFile, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { answered, awaitAnswerArgs, dialHost, parsePreflight, preflightArgs, supervisorArgs, supervisorEnv } from "./supervisor";

describe("supervisor", () => {
  it("passes binary and config as arguments, never inside the script", () => {
    const args = supervisorArgs("/opt/bin/nats-server", "/srv/bus/bus.conf");
    expect(args[0]).toBe("-c");
    expect(args.slice(2)).toEqual(["bus-supervisor", "/opt/bin/nats-server", "/srv/bus/bus.conf"]);
    expect(supervisorArgs("nats-server", "bus.conf", ["--ports_file_dir", "/tmp/p"]).slice(3)).toEqual(["nats-server", "bus.conf", "--ports_file_dir", "/tmp/p"]);
    expect(args[1]).not.toContain("/srv/bus");
    const preflight = preflightArgs("/opt/bin/nats-server", "/srv/bus/bus.conf", "::1", 4222);
    expect(preflight.slice(-4)).toEqual(["/opt/bin/nats-server", "/srv/bus/bus.conf", "::1", "4222"]);
    expect(preflight[3]).not.toContain("/srv/bus");
    expect(awaitAnswerArgs("::1", 4222, 77, 30_000)).toEqual(["30", "bash", "-c", expect.any(String), "::1", "4222", "77"]);
  });

  it("keeps the platform's own configuration out of nats-server's environment", () => {
    const env = supervisorEnv({ PATH: "/usr/bin", PLATFORM_BUS_ENCRYPTION_KEY: "k".repeat(32), NATS_TOKEN: "t", UNSET: undefined });
    expect(env).toEqual(["PATH=/usr/bin", "NATS_TOKEN=t"]);
  });

  it("dials the host of bus.server_url, or loopback for a wildcard", () => {
    expect(dialHost("nats://localhost:4222")).toBe("localhost");
    expect(dialHost("nats://0.0.0.0:4222")).toBe("127.0.0.1");
    expect(dialHost("nats://[::]:4222")).toBe("127.0.0.1");
    expect(dialHost("nats://[::1]:4222")).toBe("::1");
    expect(dialHost("tls://u:p@bus.example.com:4222")).toBe("bus.example.com");
  });

});

// The scripts run in the real bash, against a loopback listener and a stand-in for nats-server's -t.
describe("the checks around nats-server's start, in bash", () => {
  const scratch = mkdtempSync(join(tmpdir(), "supervisor-test-"));
  const listeners: Server[] = [];
  afterAll(() => {
    listeners.forEach((l) => l.close());
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A loopback port that greets each connection with `greeting`; its port. */
  async function listening(greeting: string): Promise<number> {
    const server = createServer((socket) => {
      // The scripts close without reading the rest: a reset, not a failure.
      socket.on("error", () => {});
      socket.end(greeting);
    });
    listeners.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as { port: number }).port;
  }

  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  /** A stand-in binary whose config test passes or prints a complaint and fails. */
  function natsServer(refuses: boolean): string {
    const path = join(scratch, refuses ? "refusing" : "accepting");
    writeFileSync(path, refuses ? '#!/bin/sh\necho "nats-server: bus.conf:3:1: unexpected EOF" >&2\nexit 1\n' : "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
    return path;
  }

  // Asynchronous: the listeners answer from this process's event loop.
  const run = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile(args[0], args.slice(1), { encoding: "utf8" }, (err, stdout) => (err ? reject(err) : resolve(stdout))));

  it("preflight: passes, names nats-server's complaint, or finds the port taken", async () => {
    const free = await freePort();
    expect(parsePreflight(await run(["timeout", ...preflightArgs(natsServer(false), "bus.conf", "127.0.0.1", free)]))).toEqual({ ok: true });
    expect(parsePreflight(await run(["timeout", ...preflightArgs(natsServer(true), "bus.conf", "127.0.0.1", free)]))).toEqual({
      ok: false,
      complaint: "nats-server: bus.conf:3:1: unexpected EOF",
    });
    const taken = await listening("HTTP/1.1 400\r\n");
    expect(parsePreflight(await run(["timeout", ...preflightArgs(natsServer(false), "bus.conf", "127.0.0.1", taken)]))).toEqual({ ok: false, busy: true });
  });

  /** Runs the supervisor over `program` (as the nats-server binary) with its stdin pipe held open. */
  function supervise(program: string) {
    const child = spawn("bash", supervisorArgs(program, "bus.conf"), { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, exited, stderr: () => stderr };
  }

  it("supervisor: ends, saying so, when nats-server dies at once, though PocketBase still holds the pipe", async () => {
    const dying = join(scratch, "dying");
    writeFileSync(dying, "#!/bin/sh\nexit 3\n");
    chmodSync(dying, 0o755);
    // A race: the old script missed a nats-server that ended before its `wait -n` began, in ~7% of
    // single runs (2 of 30 here), and then waited for good. Forty at once make a miss all but certain.
    const runs = Array.from({ length: 40 }, () => supervise(dying));
    const ended = await Promise.all(
      runs.map((run) => Promise.race([run.exited, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 5_000))])),
    );
    runs.forEach((run) => {
      run.child.stdin.end();
      run.child.kill("SIGKILL");
    });
    expect(ended).toEqual(runs.map(() => 0));
    runs.forEach((run) => expect(run.stderr()).toContain("bus supervisor: nats-server exited with status 3"));
  });

  it("supervisor: stops nats-server when the pipe closes (PocketBase gone)", async () => {
    const pidFile = join(scratch, "long.pid");
    const long = join(scratch, "long");
    writeFileSync(long, `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 60\n`);
    chmodSync(long, 0o755);
    const supervised = supervise(long);
    const deadline = Date.now() + 5_000;
    while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, "utf8"));
    supervised.child.stdin.end();
    expect(await supervised.exited).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(supervised.stderr()).not.toContain("exited with status");
  });

  it("waits for NATS's greeting, and stops waiting when the supervisor has exited", async () => {
    const alive = spawn("sleep", ["30"]);
    try {
      const nats = await listening('INFO {"server_id":"x"}\r\n');
      expect(answered(await run(["timeout", ...awaitAnswerArgs("127.0.0.1", nats, alive.pid!, 5_000)]))).toBe("answers");
      // Something that is not NATS on the port is not an answer; the wait goes on until timeout ends it.
      const http = await listening("HTTP/1.1 400\r\n");
      await expect(run(["timeout", ...awaitAnswerArgs("127.0.0.1", http, alive.pid!, 1_000)])).rejects.toThrow();
      expect(answered("")).toBe("timeout");
    } finally {
      alive.kill();
    }
    // A child that has exited and not been reaped yet is a zombie: that counts as exited.
    const exited = spawn("true");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered(await run(["timeout", ...awaitAnswerArgs("127.0.0.1", await freePort(), exited.pid!, 5_000)]))).toBe("exited");
    expect(answered(await run(["timeout", ...awaitAnswerArgs("127.0.0.1", await freePort(), 2 ** 22 + 1, 5_000)]))).toBe("exited");
  });
});
