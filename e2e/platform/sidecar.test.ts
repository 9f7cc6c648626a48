// The platform sidecar against the real binary: goja's client (pb_hooks_src/lib/sidecar.ts) starts it,
// mints nkeys and JWTs through it that @nats-io/jwt verifies and a real nats-server accepts, reaches a
// NATS server through it, restarts it when it was killed, and PocketBase's kill -9 leaves no orphan.
//
// A throwaway hooks dir holds the client bundled on its own, the built sidecar, and probe.pb.js: a
// `sidecarprobe` command and test-only routes, so production hooks carry no test code.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decode } from "@nats-io/jwt";
import { connect, credsAuthenticator, type NatsConnection } from "@nats-io/transport-node";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../harness/ports";
import { BIN, REPO_ROOT, run, stop } from "../harness/process";

const scratch = mkdtempSync(join(tmpdir(), "platform-sidecar-"));
const hooksDir = join(scratch, "hooks");
const migrationsDir = join(scratch, "migrations");
let seq = 0;

// Registered from the probe hooks dir only. Handlers require the client themselves (goja runs each
// handler in a pooled VM where no top-level name exists).
const PROBE = String.raw`
onBootstrap((e) => {
  e.next();
  require(__hooks + "/lib/sidecar.js").startSidecarWithServe();
});

$app.rootCmd.addCommand(new Command({
  use: "sidecarprobe",
  run: () => {
    const call = require(__hooks + "/lib/sidecar.js").sidecarCall;
    const keys = call("/v1/nkeys", { types: ["operator", "account", "user"] });
    const jwt = (seed, claims) => call("/v1/jwt", { seed: seed, claims: claims }).jwt;
    const op = keys[0], acct = keys[1], user = keys[2];
    const unlimited = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };
    console.log("SIDECARPROBE " + JSON.stringify({
      operator: { public: op.public, jwt: jwt(op.seed, { sub: op.public, name: "probe-operator", nats: { type: "operator" } }) },
      account: { public: acct.public, jwt: jwt(op.seed, { sub: acct.public, name: "probe-account", nats: { type: "account", limits: unlimited } }) },
      user: {
        public: user.public,
        seed: user.seed,
        jwt: jwt(acct.seed, { sub: user.public, name: "probe-user", nats: { type: "user", pub: {}, sub: {}, subs: -1, data: -1, payload: -1 } }),
      },
    }));
  },
}));

routerAdd("POST", "/probe/call", (e) => {
  const call = require(__hooks + "/lib/sidecar.js").sidecarCall;
  const input = JSON.parse(toString(e.request.body));
  const started = new DateTime().time().unixMicro();
  try {
    const result = call(input.path, input.body, input.timeoutSeconds || 5);
    return e.json(200, { result: result, micros: new DateTime().time().unixMicro() - started });
  } catch (err) {
    return e.json(200, { error: String(err.message), micros: new DateTime().time().unixMicro() - started });
  }
});

// Latency of calls from goja, in microseconds, measured inside the VM (no HTTP of the route itself).
routerAdd("GET", "/probe/bench", (e) => {
  const call = require(__hooks + "/lib/sidecar.js").sidecarCall;
  const n = 200;
  const seed = call("/v1/nkeys", { types: ["account"] })[0].seed;
  const cases = {
    health: () => call("/v1/health", undefined),
    nkeyUser: () => call("/v1/nkeys", { types: ["user"] }),
    userJwt: () => call("/v1/jwt", { seed: seed, claims: { sub: "UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4", name: "u", nats: { type: "user" } } }),
  };
  const out = {};
  for (const name of Object.keys(cases)) {
    for (let i = 0; i < 5; i++) cases[name]();
    const samples = [];
    for (let i = 0; i < n; i++) {
      const t = new DateTime().time().unixMicro();
      cases[name]();
      samples.push(new DateTime().time().unixMicro() - t);
    }
    samples.sort((a, b) => a - b);
    out[name] = { p50: samples[Math.floor(n * 0.5)], p95: samples[Math.floor(n * 0.95)], n: n };
  }
  return e.json(200, out);
});
`;

beforeAll(async () => {
  mkdirSync(join(hooksDir, "lib"), { recursive: true });
  mkdirSync(migrationsDir);
  // The client module as scripts/build-hooks.mjs bundles hooks code for goja.
  await build({
    entryPoints: [join(REPO_ROOT, "pb_hooks_src/lib/sidecar.ts")],
    outfile: join(hooksDir, "lib/sidecar.js"),
    bundle: true,
    format: "cjs",
    platform: "browser",
    target: "es2020",
    logLevel: "warning",
  });
  cpSync(join(REPO_ROOT, "pb_hooks/sidecar"), join(hooksDir, "sidecar"), { recursive: true });
  writeFileSync(join(hooksDir, "probe.pb.js"), PROBE);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pbArgs = (dataDir: string, hooks = hooksDir) => [
  "--dir", dataDir, "--hooksDir", hooks, "--migrationsDir", migrationsDir, "--hooksWatch=false", "--automigrate=false", "--dev=false",
];

interface Served {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
}

async function serve(env: NodeJS.ProcessEnv = process.env): Promise<Served> {
  const dataDir = join(scratch, `data-${seq++}`);
  const port = await freePort();
  const child = spawn(BIN.pocketbase, ["serve", "--http", `127.0.0.1:${port}`, ...pbArgs(dataDir)], { env });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return { url, dataDir, child, output: () => output };
    await sleep(50);
  }
  await stop(child);
  throw new Error(`pocketbase did not serve: ${output}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The sidecar's state file(s) once it has written one: serve does not wait for the sidecar to listen. */
async function startedStates(dataDir: string): Promise<{ file: string; port: number; pid: number }[]> {
  await waitFor(() => states(dataDir).length > 0, 5_000);
  return states(dataDir);
}

/** The sidecar's state file(s) in a data dir. */
function states(dataDir: string): { file: string; port: number; pid: number }[] {
  const dir = join(dataDir, ".sidecar");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ file: join(dir, name), ...(JSON.parse(readFileSync(join(dir, name), "utf8")) as { port: number; pid: number }) }));
}

/** Alive and not a zombie (a reparented zombie may wait for a reaper that never comes in a container). */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(25);
  }
  return condition();
}

interface ProbeAnswer<T> {
  result?: T;
  error?: string;
  micros: number;
}

async function probeCall<T>(served: Served, path: string, body: unknown, timeoutSeconds?: number): Promise<ProbeAnswer<T>> {
  const response = await fetch(`${served.url}/probe/call`, { method: "POST", body: JSON.stringify({ path, body, timeoutSeconds }) });
  return (await response.json()) as ProbeAnswer<T>;
}

async function startNats(port: number, config = ""): Promise<ChildProcess> {
  const file = join(scratch, `nats-${seq++}.conf`);
  writeFileSync(file, `listen: "127.0.0.1:${port}"\n${config}`);
  const child = spawn(BIN.natsServer, ["-c", file]);
  let output = "";
  child.stderr?.on("data", (d) => (output += d));
  const ready = await waitFor(() => output.includes("Server is ready"), 10_000);
  if (!ready) throw new Error(`nats-server did not start: ${output}`);
  return child;
}

const credsText = (jwt: string, seed: string) =>
  `-----BEGIN NATS USER JWT-----\n${jwt}\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n`;

async function echoResponder(nc: NatsConnection, subject: string): Promise<void> {
  nc.subscribe(subject, {
    callback: (_err, msg) => {
      msg.respond(`echo:${msg.string()}`);
    },
  });
  await nc.flush();
}

describe("sidecar from a command (lazy start)", () => {
  it("mints nkeys and JWTs that @nats-io/jwt verifies and nats-server accepts", async () => {
    const dataDir = join(scratch, `data-${seq++}`);
    const result = await run(BIN.pocketbase, ["sidecarprobe", ...pbArgs(dataDir)]);
    const line = /SIDECARPROBE (.*)/.exec(result.stdout + result.stderr)?.[1];
    expect(line, result.stdout + result.stderr).toBeDefined();
    const minted = JSON.parse(line!) as Record<"operator" | "account" | "user", { public: string; jwt: string; seed?: string }>;

    const operator = decode<Record<string, unknown>>(minted.operator.jwt) as unknown as Record<string, unknown>;
    const account = decode<Record<string, unknown>>(minted.account.jwt) as unknown as Record<string, unknown>;
    const user = decode<Record<string, unknown>>(minted.user.jwt) as unknown as Record<string, unknown>;
    expect([operator.iss, operator.sub]).toEqual([minted.operator.public, minted.operator.public]);
    expect([account.iss, account.sub]).toEqual([minted.operator.public, minted.account.public]);
    expect([user.iss, user.sub]).toEqual([minted.account.public, minted.user.public]);

    // The command's PocketBase has exited, and its sidecar with it.
    expect(states(dataDir)).toEqual([]);

    // Operator mode with the minted JWTs: the server accepts the user's credentials.
    const natsPort = await freePort();
    const server = await startNats(
      natsPort,
      `operator: ${minted.operator.jwt}\nresolver: MEMORY\nresolver_preload: { ${minted.account.public}: ${minted.account.jwt} }\n`,
    );
    try {
      const nc = await connect({
        servers: [`nats://127.0.0.1:${natsPort}`],
        authenticator: credsAuthenticator(new TextEncoder().encode(credsText(minted.user.jwt, minted.user.seed!))),
      });
      await echoResponder(nc, "probe.echo");
      await nc.close();
    } finally {
      await stop(server);
    }
  });
  it("reports a sidecar that dies while starting at once, with its output", async () => {
    const brokenHooks = join(scratch, "broken-hooks");
    cpSync(hooksDir, brokenHooks, { recursive: true });
    writeFileSync(join(brokenHooks, "sidecar/sidecar.cjs"), 'console.error("broken bundle");\nprocess.exit(3);\n');
    const started = Date.now();
    const result = await run(BIN.pocketbase, ["sidecarprobe", ...pbArgs(join(scratch, `data-${seq++}`), brokenHooks)]);
    expect(result.stdout + result.stderr).toContain(
      "the platform sidecar is not available: it exited while starting (its output: broken bundle)",
    );
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe("sidecar under serve", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(async () => stop(served.child));

  it("is started at bootstrap, answers goja, and refuses a wrong token with 401", async () => {
    const [state] = await startedStates(served.dataDir);
    expect(state).toBeDefined();
    expect(isRunning(state.pid)).toBe(true);
    const health = await probeCall<{ ok: boolean; pid: number }>(served, "/v1/health", undefined);
    expect(health.result).toEqual({ ok: true, pid: state.pid });

    for (const authorization of ["Bearer wrong-token", ""]) {
      const response = await fetch(`http://127.0.0.1:${state.port}/v1/health`, { headers: { authorization } });
      expect(response.status).toBe(401);
    }
  });

  it("reports an operation's error plainly, without the request's secrets", async () => {
    const seed = "SUAIBDPBAUTWCWBKIO6XHQNINK5FWJW4OHLXC3HQ2KFE4PEJUA44CNHTC4";
    const answer = await probeCall(served, "/v1/jwt", { seed: seed.replace("A", "B"), claims: { sub: "U" } });
    expect(answer.error).toBe("sidecar /v1/jwt: seed is not a valid nkey seed");
  });

  it("restarts a killed sidecar on the next call", async () => {
    const [before] = await startedStates(served.dataDir);
    process.kill(before.pid, "SIGKILL");
    await waitFor(() => !isRunning(before.pid), 5_000);
    const answer = await probeCall<{ ok: boolean; pid: number }>(served, "/v1/health", undefined);
    expect(answer.error).toBeUndefined();
    expect(answer.result?.pid).not.toBe(before.pid);
    const after = states(served.dataDir);
    expect(after.map((s) => s.pid)).toEqual([answer.result?.pid]);
    expect(existsSync(before.file)).toBe(false);
    console.log(`call that found the sidecar dead and restarted it: ${(answer.micros / 1000).toFixed(1)} ms`);
  });

  it("requests and pings over NATS, fails fast when the bus is down, and reconnects when it is back", async () => {
    const natsPort = await freePort();
    const servers = [`nats://127.0.0.1:${natsPort}`];

    const down = await probeCall(served, "/v1/nats/request", { servers, subject: "probe.echo", payload: "x", timeoutMs: 2000 });
    expect(down.error).toBe(`sidecar /v1/nats/request: the bus at ${servers[0]} could not be reached: connection refused`);
    expect(down.micros).toBeLessThan(1_000_000);

    let server = await startNats(natsPort);
    let nc = await connect({ servers });
    await echoResponder(nc, "probe.echo");
    const reply = await probeCall<{ reply: string }>(served, "/v1/nats/request", { servers, subject: "probe.echo", payload: "hello", timeoutMs: 2000 });
    expect(reply.result).toEqual({ reply: "echo:hello" });
    const ping = await probeCall<{ ok: boolean }>(served, "/v1/nats/ping", { servers });
    expect(ping.result?.ok).toBe(true);
    const silent = await probeCall(served, "/v1/nats/request", { servers, subject: "probe.nobody", payload: "x", timeoutMs: 500 });
    expect(silent.error).toContain("nothing on the bus");

    // The cached connection breaks with the server. Whether or not the sidecar has read the socket's end
    // yet, the call reports the bus as it is now (unreachable), and the call after its return connects anew.
    await nc.close();
    await stop(server);
    const broken = await probeCall(served, "/v1/nats/request", { servers, subject: "probe.echo", payload: "x", timeoutMs: 1000 });
    expect(broken.error).toContain("could not be reached");
    server = await startNats(natsPort);
    try {
      nc = await connect({ servers });
      await echoResponder(nc, "probe.echo");
      const again = await probeCall<{ reply: string }>(served, "/v1/nats/request", { servers, subject: "probe.echo", payload: "again", timeoutMs: 2000 });
      expect(again.result).toEqual({ reply: "echo:again" });
      await nc.close();
    } finally {
      await stop(server);
    }
  });

  it("reaches an operator-mode bus with creds it signed itself", async () => {
    const keys = (await probeCall<{ seed: string; public: string }[]>(served, "/v1/nkeys", { types: ["operator", "account", "user"] })).result!;
    const [op, acct, user] = keys;
    const jwt = async (seed: string, claims: Record<string, unknown>) => (await probeCall<{ jwt: string }>(served, "/v1/jwt", { seed, claims })).result!.jwt;
    const unlimited = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };
    const operatorJwt = await jwt(op.seed, { sub: op.public, name: "op", nats: { type: "operator" } });
    const accountJwt = await jwt(op.seed, { sub: acct.public, name: "acct", nats: { type: "account", limits: unlimited } });
    const userJwt = await jwt(acct.seed, { sub: user.public, name: "user", nats: { type: "user", pub: {}, sub: {}, subs: -1, data: -1, payload: -1 } });
    const creds = credsText(userJwt, user.seed);

    const natsPort = await freePort();
    const servers = [`nats://127.0.0.1:${natsPort}`];
    const server = await startNats(natsPort, `operator: ${operatorJwt}\nresolver: MEMORY\nresolver_preload: { ${acct.public}: ${accountJwt} }\n`);
    try {
      const nc = await connect({ servers, authenticator: credsAuthenticator(new TextEncoder().encode(creds)) });
      await echoResponder(nc, "probe.echo");
      const reply = await probeCall<{ reply: string }>(served, "/v1/nats/request", { servers, creds, subject: "probe.echo", payload: "signed", timeoutMs: 2000 });
      expect(reply.result).toEqual({ reply: "echo:signed" });
      const refused = await probeCall(served, "/v1/nats/request", { servers, subject: "probe.echo", payload: "x", timeoutMs: 2000 });
      expect(refused.error).toMatch(/refused the credentials|could not be reached/);
      expect(refused.error).not.toContain(user.seed);
      await nc.close();
    } finally {
      await stop(server);
    }
  });

  it("answers goja within a few milliseconds", async () => {
    const figures = (await (await fetch(`${served.url}/probe/bench`)).json()) as Record<string, { p50: number; p95: number; n: number }>;
    console.log(`sidecar call latency from goja, µs: ${JSON.stringify(figures)}`);
    for (const { p50 } of Object.values(figures)) expect(p50).toBeLessThan(25_000);
  });
});

describe("sidecar lifecycle", () => {
  it("exits within seconds after PocketBase is killed with SIGKILL", async () => {
    const served = await serve();
    const [state] = await startedStates(served.dataDir);
    expect(isRunning(state.pid)).toBe(true);
    served.child.kill("SIGKILL");
    expect(await waitFor(() => !isRunning(state.pid), 5_000)).toBe(true);
    // It cleaned up after itself on the way out.
    expect(states(served.dataDir)).toEqual([]);
  });

  it("without Node on PATH, serve still serves and every call says what is missing", async () => {
    const served = await serve({ ...process.env, PATH: "/nonexistent" });
    try {
      const missing = "the platform sidecar is not available: Node.js 20 or later is required and `node` is not on PATH";
      expect(served.output()).toContain(missing);
      const answer = await probeCall(served, "/v1/health", undefined);
      expect(answer.error).toBe(missing);
    } finally {
      await stop(served.child);
    }
  });
});
