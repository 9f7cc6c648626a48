// How the platform starts: the bundle loads in the real binary and uses nothing goja lacks; a broken
// bundle stops startup under the documented run command; automigrate never writes migration files;
// configuration is layered and a bad one is refused with one clear line; serve runs with GOGC=200 unless told otherwise.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { LAUNCHER, launch, startPlatform, SUPERUSER } from "../harness/platform";
import { freePort } from "../harness/ports";
import { BIN, REPO_ROOT, stop } from "../harness/process";
import { client } from "../harness/world";

const scratch = mkdtempSync(join(tmpdir(), "platform-startup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let seq = 0;
const dir = (name: string) => join(scratch, `${name}-${seq++}`);

function bundleFiles(): string[] {
  const root = join(REPO_ROOT, "pb_hooks");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith(".js")) files.push(path);
    }
  };
  walk(root);
  return files;
}

const SERVE_WITHIN_MS = 60_000;

/** Serves until healthy or exit; resolves with whether it served and what it printed. `whileServing` sees the pid once healthy. */
async function tryServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  command = LAUNCHER,
  whileServing?: (pid: number) => void,
): Promise<{ served: boolean; code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(command, ["serve", "--http", `127.0.0.1:${port}`, ...args], { env: { ...process.env, ...env } });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  // A fresh data directory is migrated first: on a loaded 2-core machine that alone has taken over 20 s.
  const deadline = Date.now() + SERVE_WITHIN_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) {
        whileServing?.(child.pid!);
        await stop(child);
        return { served: true, code: null, output };
      }
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop(child);
  return { served: false, code: child.exitCode, output };
}

describe("the hooks bundle", () => {
  it("uses nothing goja lacks", () => {
    const forbidden: [string, RegExp][] = [
      ["TextEncoder/TextDecoder", /\bText(En|De)coder\b/],
      ["crypto.getRandomValues", /\bgetRandomValues\b/],
      ["timers", /\b(setTimeout|setInterval|setImmediate)\s*\(/],
      ["async functions", /\basync\s+(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/],
      ["await", /\bawait\s/],
      ["ES module syntax", /^\s*(import|export)\s[^(]/m],
      ["Intl", /\bIntl\./],
    ];
    const files = bundleFiles();
    expect(files.map((f) => f.slice(REPO_ROOT.length))).toEqual(expect.arrayContaining(["pb_hooks/main.pb.js", "pb_hooks/lib/platform.js"]));
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      for (const [what, pattern] of forbidden) expect(pattern.test(source), `${what} in ${file}`).toBe(false);
    }
  });

  it("has exactly one entry file, so load order cannot matter", () => {
    const entries = readdirSync(join(REPO_ROOT, "pb_hooks")).filter((f) => f.endsWith(".pb.js"));
    expect(entries).toEqual(["main.pb.js"]);
  });

  it("loads in the real binary and registers every added route", async () => {
    const platform = await startPlatform();
    try {
      for (const [method, path] of [
        ["GET", "/api/client-config"],
        ["POST", "/api/org/invites/accept"],
        ["POST", "/api/org/things"],
      ]) {
        const response = await fetch(`${platform.url}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(401);
      }
      expect((await fetch(`${platform.url}/branding/theme.css`)).status).toBe(200);
      // The sidecar's own routes answer anyone else as if they did not exist.
      for (const path of [
        "/api/platform/started",
        "/api/platform/readiness/snapshot",
        "/api/platform/readiness/checks/database",
        "/api/platform/bus/upkeep",
        "/api/platform/bus/node-back",
        "/api/platform/bus/sign-claim",
      ]) {
        const response = await fetch(`${platform.url}${path}`, { method: "POST", headers: { Authorization: "Bearer not-the-sidecar" }, body: "{}" });
        expect(response.status, path).toBe(404);
      }
    } finally {
      await platform.stop();
    }
  });

  it("a bundle that fails to load stops startup under the run command", async () => {
    const hooks = dir("broken-hooks");
    cpSync(join(REPO_ROOT, "pb_hooks"), hooks, { recursive: true });
    // Something goja lacks, evaluated at load time.
    appendFileSync(join(hooks, "main.pb.js"), "\nnew TextEncoder();\n");
    const data = dir("data");
    const result = await tryServe([], { PB_DATA_DIR: data, PB_HOOKS_DIR: hooks });
    expect(result.served).toBe(false);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("TextEncoder");
  });

  it("while the stock default (hook watching on) would serve without the platform's hooks", { timeout: SERVE_WITHIN_MS + 30_000 }, async () => {
    const hooks = dir("broken-hooks");
    cpSync(join(REPO_ROOT, "pb_hooks"), hooks, { recursive: true });
    writeFileSync(join(hooks, "main.pb.js"), "throw new Error('broken bundle');\n");
    const data = dir("data");
    const result = await tryServe(["--dir", data, "--hooksDir", hooks, "--migrationsDir", join(REPO_ROOT, "pb_migrations")], {}, BIN.pocketbase);
    expect(result.served).toBe(true);
  });
});

describe("Go's collector under serve", () => {
  // The launcher execs the binary, so the child's pid is PocketBase's and its environ is what Go read.
  const gogcOf = (pid: number) =>
    readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").find((entry) => entry.startsWith("GOGC="));

  it("runs with GOGC=200, unless the operator set GOGC", { timeout: 2 * SERVE_WITHIN_MS + 30_000 }, async () => {
    for (const [given, expected] of [[undefined, "GOGC=200"], ["50", "GOGC=50"]] as const) {
      let seen: string | undefined;
      const result = await tryServe([], { PB_DATA_DIR: dir("data"), GOGC: given }, LAUNCHER, (pid) => (seen = gogcOf(pid)));
      expect(result.served, result.output).toBe(true);
      expect(seen).toBe(expected);
    }
  });
});

describe("automigrate", () => {
  it("writes no migration file when a SuperUser changes collections under the run command", async () => {
    const migrations = dir("migrations");
    cpSync(join(REPO_ROOT, "pb_migrations"), migrations, { recursive: true });
    const before = readdirSync(migrations);
    const platform = await startPlatform({ env: { PB_MIGRATIONS_DIR: migrations } });
    try {
      const su = await platform.superuser();
      await su.collections.create({ name: "scratch_notes", type: "base", fields: [{ name: "note", type: "text" }] });
      expect(readdirSync(migrations)).toEqual(before);
    } finally {
      await platform.stop();
    }
  });

  it("(control) the stock default would have written one", async () => {
    const migrations = dir("migrations");
    cpSync(join(REPO_ROOT, "pb_migrations"), migrations, { recursive: true });
    const data = dir("data");
    const places = ["--dir", data, "--hooksDir", join(REPO_ROOT, "pb_hooks"), "--migrationsDir", migrations];
    const port = await freePort();
    await launch(["migrate", "up"], { ...process.env, PB_DATA_DIR: data, PB_MIGRATIONS_DIR: migrations }, scratch);
    await launch(["superuser", "upsert", SUPERUSER.email, SUPERUSER.password], { ...process.env, PB_DATA_DIR: data, PB_MIGRATIONS_DIR: migrations }, scratch);
    const child = spawn(BIN.pocketbase, ["serve", "--http", `127.0.0.1:${port}`, "--hooksWatch=false", ...places]);
    try {
      const su = client(`http://127.0.0.1:${port}`);
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        try {
          await su.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      await su.collections.create({ name: "scratch_notes", type: "base", fields: [{ name: "note", type: "text" }] });
      expect(readdirSync(migrations).length).toBe(readdirSync(join(REPO_ROOT, "pb_migrations")).length + 1);
    } finally {
      await stop(child);
    }
  });
});

describe("configuration at startup", () => {
  const refusals: [string, Record<string, string>, string][] = [
    ["a bus.leaf_url with another scheme", { PLATFORM_BUS_LEAF_URL: "http://hub:7422" }, "bus.leaf_url"],
    ["a managed export subject not ending in .>", { PLATFORM_BUS_MANAGED_EXPORT_SUBJECT: "helpdesk.*" }, "bus.managed_export_subject"],
    ["a comma-joined multi-URL variable", { PLATFORM_BUS_WEBSOCKET_URLS: "ws://a:1,ws://b:2" }, "bus.websocket_urls"],
    ["a short bus encryption key", { PLATFORM_BUS_ENCRYPTION_KEY: "too-short" }, "bus.encryption_key"],
    ["a long overlay encryption key", { PLATFORM_OVERLAY_ENCRYPTION_KEY: "x".repeat(33) }, "overlay.encryption_key"],
  ];

  it.each(refusals)("refuses %s with one clear line", async (_, env, key) => {
    const result = await launch(["serve", "--http", `127.0.0.1:${await freePort()}`], { ...process.env, PB_DATA_DIR: dir("data"), ...env }, scratch);
    expect(result.code).not.toBe(0);
    const lines = (result.stdout + result.stderr).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(key);
    // A secret value is never echoed back.
    if (env.PLATFORM_BUS_ENCRYPTION_KEY) expect(lines[0]).not.toContain(env.PLATFORM_BUS_ENCRYPTION_KEY);
  });

  it("layers PLATFORM_* over --config over ./config.yaml, and accepts --bus and --bus-config on serve", async () => {
    const cwd = dir("cwd");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "config.yaml"), "bus:\n  websocket_urls: [\"ws://cwd:1\"]\n");
    const explicit = join(cwd, "explicit.yaml");
    writeFileSync(explicit, "bus:\n  websocket_urls: [\"ws://explicit:1\", \"ws://explicit:2\"]\n");

    const urlsOf = async (options: Parameters<typeof startPlatform>[0]) => {
      const platform = await startPlatform({ cwd, ...options });
      try {
        const pb = client(platform.url);
        await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
        const user = await pb.collection("users").create({ email: "cfg@example.test", password: "cfg-password-1", passwordConfirm: "cfg-password-1" });
        const session = client(platform.url);
        await session.collection("users").authWithPassword(user.email as string, "cfg-password-1");
        return (await session.send("/api/client-config", {})).natsWebsocketUrls as string[];
      } finally {
        await platform.stop();
      }
    };

    expect(await urlsOf({})).toEqual(["ws://cwd:1"]);
    expect(await urlsOf({ serveFlags: ["--config", explicit, "--bus-config", join(cwd, "bus.conf")] })).toEqual(["ws://explicit:1", "ws://explicit:2"]);
    expect(await urlsOf({ serveFlags: ["--config", explicit], env: { PLATFORM_BUS_WEBSOCKET_URLS: "ws://env:1 ws://env:2" } })).toEqual(["ws://env:1", "ws://env:2"]);
  });
});
