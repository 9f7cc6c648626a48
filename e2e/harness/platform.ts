// Starts the real pinned PocketBase with the built hooks on a free loopback port and a temporary data
// directory through scripts/platform, the documented run command (hook watching and automigrate off).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "./ports";
import { REPO_ROOT, run, stop, type RunResult } from "./process";

export const SUPERUSER = { email: "root@example.test", password: "root-password-123" };

export interface PlatformOptions {
  /** Extra environment (PLATFORM_* configuration). */
  env?: Record<string, string>;
  /** Extra flags for `serve` (for example --config). */
  serveFlags?: string[];
  /** The HTTP port, when the caller reserved it together with others; a free one otherwise. */
  port?: number;
  cwd?: string;
  /** false: serve with no SuperUser at all (a fresh install); `superuser()` then fails. */
  superuser?: false;
  /** Fills the new data directory before anything runs in it (a database restored from a replica). */
  seed?: (dataDir: string) => void;
}

export interface Platform {
  url: string;
  dataDir: string;
  /** Output of the serve process so far. */
  log(): string;
  /** Runs another command of the binary against the same data directory. */
  command(args: string[]): Promise<RunResult>;
  superuser(): Promise<PocketBase>;
  /**
   * Stops serve and starts it again on the same port and data directory, optionally with changed environment
   * and with `whileStopped` run in between (a state only a stopped platform can be given, as an upgrade's).
   */
  restart(changes?: NodeJS.ProcessEnv, whileStopped?: () => unknown): Promise<void>;
  /** SIGKILL: serve dies as a machine's loss would end it, its data directory kept (restart() serves it again). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export const LAUNCHER = join(REPO_ROOT, "scripts/platform");

/** How long one API request of a test may go unanswered before its platform counts as hung. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The output of each running platform, by URL, for the message of a request it did not answer. */
const outputs = new Map<string, () => string>();
/** Platforms that left a request unanswered, by URL, with the message saying so. */
const hung = new Map<string, string>();

/**
 * An API client of the platform at `url` (no auto-cancellation). A request unanswered for 30 s fails with
 * the end of the platform's log, and so does every later request to that platform at once: a hung
 * platform then fails its file in seconds and says why, instead of each test waiting out its own timeout.
 */
export function client(url: string): PocketBase {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  pb.beforeSend = (target, options) => {
    const known = hung.get(url);
    if (known) throw new Error(known);
    return { url: target, options: { ...options, fetch: (input: RequestInfo | URL, init?: RequestInit) => answered(url, input, init) } };
  };
  return pb;
}

async function answered(base: string, input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const deadline = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    return await fetch(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
  } catch (err) {
    if (!deadline.aborted) throw err;
    const log = (outputs.get(base)?.() ?? "").trimEnd().split("\n").slice(-30).join("\n");
    const message = `the platform at ${base} did not answer ${init.method ?? "GET"} ${String(input).slice(base.length)} within ${REQUEST_TIMEOUT_MS / 1000} s; the end of its log:\n${log}`;
    hung.set(base, message);
    // The SDK reports a failed fetch as "Something went wrong." unless the error carries a response body.
    throw Object.assign(new Error(message), { data: { message } });
  }
}

/** Runs the launcher with `args` (PB_* variables in `env` place its data), `input` on its stdin. */
export function launch(args: string[], env: NodeJS.ProcessEnv, cwd: string, input?: string): Promise<RunResult> {
  return run(LAUNCHER, args, { env, cwd, input });
}

export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const root = mkdtempSync(join(tmpdir(), "platform-e2e-"));
  const dataDir = join(root, "data");
  const env: NodeJS.ProcessEnv = { ...process.env, PB_DATA_DIR: dataDir, ...options.env };
  const cwd = options.cwd ?? root;
  const command = (args: string[]) => launch(args, env, cwd);
  if (options.seed) {
    mkdirSync(dataDir, { recursive: true });
    options.seed(dataDir);
  }

  const migrated = await command(["migrate", "up"]);
  if (migrated.code !== 0) throw new Error(`migrate up failed: ${migrated.stderr}${migrated.stdout}`);
  if (options.superuser !== false) {
    const upserted = await command(["superuser", "upsert", SUPERUSER.email, SUPERUSER.password]);
    if (upserted.code !== 0) throw new Error(`superuser upsert failed: ${upserted.stderr}`);
  }

  let port = options.port ?? (await freePort());
  let url = `http://127.0.0.1:${port}`;
  let output = "";
  const serve = async () => {
    const child = spawn(LAUNCHER, ["serve", "--http", `127.0.0.1:${port}`, ...(options.serveFlags ?? [])], { env, cwd });
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    await waitHealthy(url, child, () => output);
    outputs.set(url, () => output);
    hung.delete(url);
    return child;
  };
  let child = await serve().catch(async (err: unknown) => {
    // A port found free a moment ago can be taken by another test's process before serve binds it: with a
    // port of our own choosing, serve again on another.
    if (options.port !== undefined || !String(err).includes("address already in use")) throw err;
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    return serve();
  });

  return {
    url,
    dataDir,
    log: () => output,
    command,
    superuser: async () => {
      const pb = client(url);
      await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      return pb;
    },
    kill: async () => {
      const exited = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("exit", resolve)));
      child.kill("SIGKILL");
      await exited;
    },
    restart: async (changes = {}, whileStopped) => {
      await stop(child);
      await whileStopped?.();
      Object.assign(env, changes);
      child = await serve();
    },
    stop: async () => {
      await stop(child);
      outputs.delete(url);
      hung.delete(url);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`pocketbase exited with ${child.exitCode}: ${output()}`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet, or not answering yet: the deadline above decides
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop(child);
  throw new Error(`pocketbase did not become healthy: ${output()}`);
}

/**
 * A platform for one describe block: started before its tests (with options computed then, so they may
 * reserve ports), stopped after. The returned object is filled in by beforeAll.
 */
export function usePlatform(options: () => PlatformOptions | Promise<PlatformOptions> = () => ({})): Platform {
  const platform = {} as Platform;
  beforeAll(async () => {
    Object.assign(platform, await startPlatform(await options()));
  }, 60_000);
  afterAll(async () => platform.stop?.());
  return platform;
}

/**
 * `migrate up` as an upgrade runs it: serve stopped, then started again. Beside a serve that commits, SQLite
 * refuses the migration's transaction with SQLITE_BUSY (docs/operations.md "Upgrades and rolling back").
 */
export async function migrateUp(platform: Platform): Promise<RunResult> {
  let migrated: RunResult = { code: -1, stdout: "", stderr: "migrate up did not run" };
  await platform.restart({}, async () => (migrated = await platform.command(["migrate", "up"])));
  return migrated;
}

/**
 * The environment of a platform that replicates its record store (replication.enabled), with Litestream's
 * metrics listener on a port of its own: platforms of tests running at once must not share one.
 */
export async function replicationEnv(env: Record<string, string> = {}): Promise<Record<string, string>> {
  return { PLATFORM_REPLICATION_ENABLED: "true", PLATFORM_REPLICATION_METRICS_ADDR: `127.0.0.1:${await freePort()}`, ...env };
}
