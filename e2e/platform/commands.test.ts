// The CLI: help of every command through the launcher, bootstrap after migrate up, its refusals, and the
// build script's message on a machine without Go.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launch } from "../harness/platform";
import { REPO_ROOT, run } from "../harness/process";

const scratch = mkdtempSync(join(tmpdir(), "platform-commands-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let seq = 0;

function commands() {
  const env = { ...process.env, PB_DATA_DIR: join(scratch, `data-${seq++}`) };
  return (args: string[]) => launch(args, env, scratch);
}

const text = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

/** The names listed under "Available Commands:" of a cobra help text. */
function listedCommands(help: string): string[] {
  const section = help.split("Available Commands:\n")[1]?.split("\n\n")[0] ?? "";
  return section.split("\n").map((line) => line.trim().split(/\s+/)[0]);
}

describe("--help through scripts/platform", () => {
  // The platform's own commands with their flags (registered by the hooks), and the stock serve, whose
  // platform flags come from the hooks too.
  it.each([
    [["bootstrap"], ["--email", "--password", "--org", "--operator-org"]],
    [["bus", "export"], ["--out", "--port", "--websocket-port", "--leafnode-port", "--monitor-port", "--domain"]],
    [["audit", "prune"], ["--max-age", "--max-records"]],
    [["serve"], ["--http", "--bus", "--bus-config", "--config"]],
  ])("%j --help prints its usage and flags, exit 0, and touches no data", async (command, flags) => {
    const data = join(scratch, `data-${seq++}`);
    for (const help of ["--help", "-h"]) {
      const result = await launch([...command, help], { ...process.env, PB_DATA_DIR: data }, scratch);
      expect(result.code, text(result)).toBe(0);
      expect(result.stdout).toContain(`Usage:\n  pocketbase ${command.join(" ")} `);
      for (const flag of flags) expect(result.stdout).toMatch(new RegExp(`^\\s+(-\\w, )?${flag} `, "m"));
      expect(text(result)).not.toContain("unknown command");
    }
    expect(existsSync(data)).toBe(false);
  });

  it("the root help lists the platform's commands next to the stock ones; nested ones list theirs", async () => {
    const cli = commands();
    const root = await cli(["--help"]);
    expect(root.code, text(root)).toBe(0);
    expect(listedCommands(root.stdout)).toEqual(expect.arrayContaining(["serve", "migrate", "superuser", "bootstrap", "audit", "bus"]));
    const bus = await cli(["bus", "--help"]);
    expect(bus.code).toBe(0);
    expect(listedCommands(bus.stdout)).toEqual(["export"]);
    const audit = await cli(["audit", "--help"]);
    expect(audit.code).toBe(0);
    expect(listedCommands(audit.stdout)).toEqual(["prune"]);
    // A group alone prints its help too.
    const bare = await cli(["bus"]);
    expect(bare.code, text(bare)).toBe(0);
    expect(listedCommands(bare.stdout)).toEqual(["export"]);
  });
});

describe("scripts/platform update", () => {
  it("is refused: PocketBase's self-update would replace the pinned binary", async () => {
    const binary = join(REPO_ROOT, "bin", "pocketbase");
    const before = statSync(binary).mtimeMs;
    const result = await commands()(["update"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("update is refused: bin/pocketbase is pinned in scripts/binaries.env");
    expect(statSync(binary).mtimeMs).toBe(before);
  });
});

describe("scripts/platform --version", () => {
  it("names the platform's version (the readiness body's) and the pinned components', not the stock '(untracked)'", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    const pins = readFileSync(join(REPO_ROOT, "scripts", "binaries.env"), "utf8");
    const pocketbase = /^POCKETBASE_VERSION=(.*)$/m.exec(pins)?.[1];
    for (const flag of ["--version", "-v"]) {
      const result = await commands()([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^platform ${version} \\(PocketBase ${pocketbase}, nats-server v[\\d.]+, nebula v[\\d.]+, litestream v[\\d.]+\\)\n$`));
    }
  });
});

describe("scripts/platform flags", () => {
  it("dev mode stays off unless the caller asks for it with its own --dev", async () => {
    const quiet = await commands()(["migrate", "up"]);
    expect(quiet.code).toBe(0);
    expect(text(quiet)).not.toContain("CREATE TABLE");
    const dev = await commands()(["migrate", "up", "--dev"]);
    expect(dev.code).toBe(0);
    expect(text(dev)).toContain("CREATE TABLE");
  });
});

describe("bootstrap", () => {
  it("needs the schema first and says which command to run", async () => {
    const cli = commands();
    const result = await cli(["bootstrap", "--email", "op@example.test"]);
    expect(result.code).not.toBe(0);
    expect(text(result)).toContain("migrate up");
  });

  it("creates the operator, the system and operator organizations, and prints a generated password once", async () => {
    const cli = commands();
    expect((await cli(["migrate", "up"])).code).toBe(0);
    const first = await cli(["bootstrap", "--email", "op@example.test", "--org", "Platform System", "--operator-org", "Platform Ops"]);
    expect(first.code).toBe(0);
    const password = /generated password \(shown once\): (\S+)/.exec(text(first))?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(text(first)).toContain(`system organization "platform-system"`);
    expect(text(first)).toContain(`operator organization "platform-ops"`);

    const again = await cli(["bootstrap", "--email", "other@example.test", "--password", "another-password-1"]);
    expect(again.code).not.toBe(0);
    expect(text(again)).toContain("already bootstrapped");
    expect(text(again)).not.toContain(password!);

    // Stock commands keep working with the hooks loaded.
    expect((await cli(["superuser", "upsert", "root@example.test", "root-password-123"])).code).toBe(0);
    expect((await cli(["migrate", "up"])).code).toBe(0);
  });

  it("takes --password and then prints none", async () => {
    const cli = commands();
    await cli(["migrate", "up"]);
    const result = await cli(["bootstrap", "--email", "op@example.test", "--password", "chosen-password-1"]);
    expect(result.code).toBe(0);
    expect(text(result)).not.toContain("generated password");
    expect(text(result)).not.toContain("chosen-password-1");
  });

  it("refuses without --email", async () => {
    const cli = commands();
    await cli(["migrate", "up"]);
    const result = await cli(["bootstrap"]);
    expect(result.code).not.toBe(0);
    expect(text(result)).toContain("--email");
  });
});

describe("a platform command that fails", () => {
  // PocketBase prints an error out of a command with a timestamp and the hooks' script position; the
  // operator gets one line that names the command instead.
  it.each([
    [["bootstrap", "--email", "op@example.test"], "bootstrap: the platform schema is missing: run `migrate up` first, then `bootstrap`", false],
    [["bootstrap"], "bootstrap: --email is required", true],
    [["bootstrap", "--email", "op@example.test", "--password", "short"], "bootstrap: password: Must be at least 8 character(s).", true],
    [["audit", "prune", "--max-age", "soon"], 'audit prune: "soon" is not a duration (examples: 15s, 1m30s, 500ms, 720h)', true],
    [["bus", "export"], "bus export: --out <dir> is required", true],
    // A mistyped subcommand or a stray word is not mistaken for success.
    [["bus", "bogus"], `unknown command "bogus" for "pocketbase bus" (see 'pocketbase bus --help')`, false],
    [["audit", "purge"], `unknown command "purge" for "pocketbase audit" (see 'pocketbase audit --help')`, false],
    [["bootstrap", "op@example.test"], `bootstrap: unexpected argument "op@example.test" (see 'pocketbase bootstrap --help')`, true],
    [["audit", "prune", "now"], `audit prune: unexpected argument "now" (see 'pocketbase audit prune --help')`, true],
  ])("%j says why in one line on stderr, exit 1", async (args, message, migrated) => {
    const cli = commands();
    if (migrated) expect((await cli(["migrate", "up"])).code).toBe(0);
    const result = await cli(args);
    expect(result.code, text(result)).toBe(1);
    expect(result.stderr.trim()).toBe(message);
    expect(result.stdout).toBe("");
  });
});

describe("scripts/build-binaries.sh", () => {
  it("tells a machine without Go what to install or which variable to set", async () => {
    const root = join(scratch, "no-go");
    mkdirSync(root);
    cpSync(join(REPO_ROOT, "scripts"), join(root, "scripts"), { recursive: true });
    const result = await run("bash", [join(root, "scripts/build-binaries.sh")], { env: { PATH: "/usr/bin:/bin", HOME: scratch } });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Go is required");
    expect(lines[0]).toContain("POCKETBASE_BIN");
  });
});
