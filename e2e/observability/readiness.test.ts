// GET /api/ready against the real PocketBase, its sidecar prober and a real nats-server (spec 2.3, 3.1,
// 3.2, 4.3, 7): each of the ten checks driven into its states by real conditions.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { startNatsServer } from "../harness/nats";
import { launch, startPlatform, usePlatform, type Platform } from "../harness/platform";
import { freePort } from "../harness/ports";
import { checkBecomes, checkOf, getReady, readyWhen } from "../harness/readiness";
import { parseDuration } from "../../common/config/duration";
import { createOrganization, unique } from "../harness/world";

const CHECKS = [
  "bootstrap",
  "bus_operator",
  "bus_reachable",
  "bus_trust",
  "bus_websocket_urls",
  "database",
  "encryption_at_rest",
  "overlay_cert_expiry",
  "schema",
  "schema_version",
];
const FAST_PROBES = { PLATFORM_READINESS_INTERVAL: "250ms", PLATFORM_READINESS_TIMEOUT: "2s" };
const KEYS = { PLATFORM_BUS_ENCRYPTION_KEY: "b".repeat(32), PLATFORM_OVERLAY_ENCRYPTION_KEY: "o".repeat(32) };
const OPERATOR_EMAIL = "operator@example.test";

const sql = (platform: Platform, statement: string) => execFileSync("sqlite3", [join(platform.dataDir, "data.db"), statement], { encoding: "utf8" });

async function bootstrap(platform: Platform): Promise<void> {
  const result = await platform.command(["bootstrap", "--email", OPERATOR_EMAIL, "--password", "operator-password-1"]);
  expect(result.code, result.stderr + result.stdout).toBe(0);
}

describe("readiness of a fresh platform: not bootstrapped, no bus", () => {
  // bus.server_url may carry a user and password; the public body and the log never show them.
  const BUS_PASSWORD = "hunter2-bus-password";
  const platform = usePlatform(async () => ({ env: { ...FAST_PROBES, PLATFORM_BUS_SERVER_URL: `nats://probe:${BUS_PASSWORD}@127.0.0.1:${await freePort()}` } }));

  it("serves exactly the ten checks sorted by name, uncached, one body for everyone", async () => {
    const { body } = await readyWhen(platform.url, () => true);
    expect(body.checks.map((c) => c.name)).toEqual(CHECKS);
    expect(Object.keys(body)).toEqual(["ready", "state", "version", "uptime", "took", "checked", "checks"]);
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    const anonymous = await getReady(platform.url);
    expect(anonymous.cacheControl).toBe("no-store");
    const su = await platform.superuser();
    const authed = await getReady(platform.url, { Authorization: su.authStore.token });
    const comparable = (b: typeof anonymous.body) => ({ ...b, uptime: "", checked: "", took: "", checks: b.checks.map((c) => ({ ...c, took: "" })) });
    expect(comparable(authed.body)).toEqual(comparable((await getReady(platform.url)).body));
  });

  it("fails (503) on bootstrap and bus_operator with the bootstrap command after migrate up, and on bus_reachable", async () => {
    const { status, body } = await readyWhen(platform.url, () => true);
    expect(status).toBe(503);
    expect(body).toMatchObject({ ready: false, state: "fail" });
    const boot = checkOf(body, "bootstrap");
    expect(boot.state).toBe("fail");
    expect(boot.detail).toContain("no user has is_operator set");
    expect(boot.fix).toMatch(/migrate up.*&&.*bootstrap --email/);
    expect(checkOf(body, "bus_operator")).toMatchObject({ state: "fail", fix: boot.fix });
    expect(checkOf(body, "bus_reachable").state).toBe("fail");
    expect(checkOf(body, "bus_reachable").detail).toContain("nothing listens");
    for (const name of ["database", "schema", "schema_version"]) expect(checkOf(body, name).state, name).toBe("ok");
  });

  it("skips bus_trust and overlay_cert_expiry, warns on bus_websocket_urls and encryption_at_rest, each with a fix", async () => {
    const { body } = await readyWhen(platform.url, () => true);
    expect(checkOf(body, "bus_trust").state).toBe("skipped");
    expect(checkOf(body, "overlay_cert_expiry")).toMatchObject({ state: "skipped", detail: "no overlay certificates issued" });
    expect(checkOf(body, "bus_websocket_urls")).toMatchObject({ state: "warn", detail: expect.stringContaining("bus.websocket_urls") });
    const encryption = checkOf(body, "encryption_at_rest");
    expect(encryption.state).toBe("warn");
    expect(encryption.detail).toContain("bus.encryption_key and overlay.encryption_key");
    for (const check of body.checks) {
      if (check.state !== "ok") expect(check.fix, check.name).toBeTruthy();
    }
  });

  it("bootstrap makes bootstrap and bus_operator ok; clearing the last is_operator fails bootstrap again", async () => {
    await bootstrap(platform);
    const { body } = await readyWhen(platform.url, (b) => checkOf(b, "bootstrap").state === "ok", { after: new Date() });
    expect(checkOf(body, "bus_operator").state).toBe("ok");
    sql(platform, "UPDATE users SET is_operator = 0");
    const failing = await checkBecomes(platform.url, "bootstrap", "fail");
    expect(checkOf(failing.body, "bootstrap").detail).toBe("not bootstrapped: no user has is_operator set");
    // bootstrap refuses a database with a system organization, so the fix also says what mends it.
    expect(checkOf(failing.body, "bootstrap").fix).toMatch(/bootstrap --email .*refuses a database bootstrapped before.*admin UI/);
    const again = await platform.command(["bootstrap", "--email", "second@example.test"]);
    expect(again.stdout + again.stderr).toMatch(/already bootstrapped/);
    sql(platform, `UPDATE users SET is_operator = 1 WHERE email = '${OPERATOR_EMAIL}'`);
    await checkBecomes(platform.url, "bootstrap", "ok");
  });

  it("bus_operator fails while the operator record has no JWT", async () => {
    const saved = sql(platform, "SELECT operator_jwt FROM bus_system_operator").trim();
    sql(platform, "UPDATE bus_system_operator SET operator_jwt = ''");
    try {
      const { body } = await checkBecomes(platform.url, "bus_operator", "fail");
      expect(checkOf(body, "bus_operator").detail).toBe("the bus operator record has no JWT");
    } finally {
      sql(platform, `UPDATE bus_system_operator SET operator_jwt = '${saved}'`);
    }
    await checkBecomes(platform.url, "bus_operator", "ok");
  });

  it("names bus.server_url without the user and password it carries, in the body and in the log", async () => {
    const { body } = await readyWhen(platform.url, (b) => checkOf(b, "bus_trust").detail?.includes("the bus at") === true, { after: new Date() });
    expect(checkOf(body, "bus_reachable").detail).toMatch(/^bus\.server_url nats:\/\/127\.0\.0\.1:\d+: nothing listens/);
    expect(checkOf(body, "bus_trust").detail).toMatch(/the bus at nats:\/\/127\.0\.0\.1:\d+ could not be reached/);
    expect(JSON.stringify(body)).not.toContain(BUS_PASSWORD);
    expect(platform.log()).not.toContain(BUS_PASSWORD);
  });

  it("schema_version fails while the database holds a migration this binary does not know", async () => {
    const future = "1999999999_from_a_newer_release.js";
    sql(platform, `INSERT INTO _migrations (file, applied) VALUES ('${future}', 1999999999000000)`);
    try {
      const { body } = await checkBecomes(platform.url, "schema_version", "fail");
      expect(checkOf(body, "schema_version").detail).toContain(future);
      expect(checkOf(body, "schema_version").fix).toBeTruthy();
      // A restart on that database says so at once, in serve's output.
      const earlier = platform.log().length;
      expect(platform.log()).not.toContain("this binary does not know");
      await platform.restart();
      expect(platform.log().slice(earlier)).toContain(`serve: the database holds migrations this binary does not know (a newer release wrote them): ${future}. Run the release`);
    } finally {
      sql(platform, `DELETE FROM _migrations WHERE file = '${future}'`);
    }
    await checkBecomes(platform.url, "schema_version", "ok");
  });

  it("database fails while another process holds the database, bounded by readiness.timeout, and recovers", async () => {
    // A second writer (another instance) holds the write lock: PocketBase's write waits, the probe does not.
    const holder = spawn("sqlite3", [join(platform.dataDir, "data.db")], { stdio: ["pipe", "ignore", "ignore"] });
    holder.stdin.write("BEGIN IMMEDIATE;\nDELETE FROM _params WHERE 0;\n");
    try {
      const { body } = await checkBecomes(platform.url, "database", "fail");
      const database = checkOf(body, "database");
      expect(database.detail).toMatch(/did not finish within 2s|still running since an earlier probe/);
      expect(database.fix).toBeTruthy();
      // The probe as a whole stays bounded by the timeout.
      expect(parseDuration(body.took)).toBeLessThan(2_500);
    } finally {
      holder.stdin.end("COMMIT;\n");
    }
    await checkBecomes(platform.url, "database", "ok", { withinMs: 30_000 });
  });
});

describe("readiness when the prober's sidecar dies", () => {
  const platform = usePlatform(() => ({ env: FAST_PROBES }));

  it("keeps serving the last snapshot, then probing resumes once the per-minute watchdog restarts the sidecar", async () => {
    const { body: before } = await readyWhen(platform.url, () => true);
    const dir = join(platform.dataDir, ".sidecar");
    const [state] = readdirSync(dir).filter((f) => f.endsWith(".json"));
    const { pid } = JSON.parse(readFileSync(join(dir, state), "utf8")) as { pid: number };
    // The watchdog runs on the minute and acts on a snapshot older than 3 × (interval + timeout), 6.75 s.
    // Killed between :10 and :40, the next run sees the prober stopped. Not earlier: a minute job that
    // calls the sidecar (the bus reconcile, with its timeouts) may still be running a few seconds after
    // :00, restart the sidecar it finds gone, and leave the watchdog nothing to say (seen once at :01).
    const second = new Date().getSeconds();
    if (second < 10 || second > 40) await new Promise((r) => setTimeout(r, ((70 - second) % 60) * 1000));
    process.kill(pid, "SIGKILL");
    const killedAt = new Date();
    // Served from the last snapshot meanwhile: its `checked` shows its age.
    expect((await getReady(platform.url)).body.checked).not.toBeNull();
    const { body: after } = await readyWhen(platform.url, () => true, { after: killedAt, withinMs: 80_000 });
    expect(after.checks.map((c) => c.name)).toEqual(before.checks.map((c) => c.name));
    expect(platform.log()).toContain("readiness: no probe has completed");
  }, 120_000);
});

describe("readiness with a bus", () => {
  let bus: PlatformWithBus;
  beforeAll(async () => {
    bus = await startPlatformWithBus({ env: { ...FAST_PROBES, ...KEYS, PLATFORM_BUS_WEBSOCKET_URLS: "ws://127.0.0.1:8443" } });
    await bootstrap(bus.platform);
  }, 90_000);
  afterAll(async () => bus?.stop());

  it("answers 200 with every check ok when all is well", async () => {
    const { status, body } = await readyWhen(bus.platform.url, (b) => b.state === "ok", { after: new Date() });
    expect(status).toBe(200);
    expect(body.ready).toBe(true);
    for (const check of body.checks) expect(check, check.name).toMatchObject({ state: "ok" });
  });

  it("fails bus_reachable and skips bus_trust while nats-server is stopped; both recover when it is back", async () => {
    await bus.stopNats();
    try {
      const { status, body } = await checkBecomes(bus.platform.url, "bus_reachable", "fail");
      expect(status).toBe(503);
      expect(checkOf(body, "bus_reachable").detail).toContain("nothing listens");
      expect(checkOf(body, "bus_trust").state).toBe("skipped");
    } finally {
      await bus.startNats();
    }
    const { body } = await readyWhen(bus.platform.url, (b) => b.state === "ok", { after: new Date() });
    expect(checkOf(body, "bus_trust").state).toBe("ok");
  });

  it("fails bus_trust, not bus_reachable, when the server trusts another operator", async () => {
    // Another deployment's export: a real server config whose operator is not ours.
    const otherData = mkdtempSync(join(tmpdir(), "readiness-other-"));
    const otherOut = mkdtempSync(join(tmpdir(), "readiness-other-bus-"));
    const env = { ...process.env, PB_DATA_DIR: otherData };
    try {
      expect((await launch(["migrate", "up"], env, otherData)).code).toBe(0);
      const exported = await launch(["bus", "export", "--out", otherOut, "--port", String(bus.ports.port), "--websocket-port", String(bus.ports.websocket), "--leafnode-port", String(bus.ports.leafnode), "--monitor-port", String(bus.ports.monitor)], env, otherData);
      expect(exported.code, exported.stderr).toBe(0);
      await bus.stopNats();
      const foreign = await startNatsServer({ configDir: otherOut });
      try {
        // The verdict, not a probe that ran out of time on a loaded machine (also a fail, said otherwise).
        const rejected = (b: Parameters<typeof checkOf>[0]) =>
          checkOf(b, "bus_trust").state === "fail" && !/did not finish|still running since an earlier probe/.test(checkOf(b, "bus_trust").detail ?? "");
        const { body } = await readyWhen(bus.platform.url, rejected, { after: new Date() });
        expect(checkOf(body, "bus_reachable").state).toBe("ok");
        expect(checkOf(body, "bus_trust").detail).toContain("rejects the $SYS credential");
        expect(checkOf(body, "bus_trust").fix).toContain("bus export");
      } finally {
        await foreign.stop();
      }
    } finally {
      await bus.startNats();
      rmSync(otherData, { recursive: true, force: true });
      rmSync(otherOut, { recursive: true, force: true });
    }
    await readyWhen(bus.platform.url, (b) => b.state === "ok", { after: new Date() });
  });

  it("warns on bus_reachable (still 200) when the server runs without persistence", async () => {
    const dir = bus.nats().configDir;
    const withoutPersistence = readFileSync(join(dir, "bus.conf"), "utf8").replace(/\njetstream \{[^}]*\}\n/, "\n");
    expect(withoutPersistence).not.toContain("jetstream {");
    writeFileSync(join(dir, "bus-no-persistence.conf"), withoutPersistence);
    await bus.stopNats();
    const plain = await startNatsServer({ configDir: dir, configFile: "bus-no-persistence.conf" });
    try {
      // A warn alone keeps 200: waited for with no other check failing meanwhile (a probe that ran out of
      // time on a loaded machine fails its check, and that is a 503 of its own), and with the trust check
      // done (a probe that met the server still starting skips it: "could not look").
      const { status, body } = await readyWhen(
        bus.platform.url,
        (b) => checkOf(b, "bus_reachable").state === "warn" && checkOf(b, "bus_trust").state !== "skipped" && b.checks.every((c) => c.state !== "fail"),
        { after: new Date() },
      );
      expect(status).toBe(200);
      expect(body).toMatchObject({ ready: true, state: "warn" });
      expect(checkOf(body, "bus_reachable").detail).toContain("JetStream");
      expect(checkOf(body, "bus_trust").state).toBe("ok");
    } finally {
      await plain.stop();
      await bus.startNats();
    }
    await readyWhen(bus.platform.url, (b) => b.state === "ok", { after: new Date() });
  });

  it("warns on overlay_cert_expiry for an active host within 30 days and a CA within 90, never failing; inactive hosts do not count", async () => {
    const su = await bus.platform.superuser();
    const organization = await createOrganization(su, unique("Expiring"));
    const ca = await su.collection("overlay_ca").getFirstListItem(`organization = "${organization.id}"`);
    const network = await su.collection("overlay_networks").create({ organization: organization.id, name: "net", cidr: "10.77.0.0/16" });
    const host = await su.collection("overlay_hosts").create({ organization: organization.id, network: network.id, name: "edge", overlay_ip: "10.77.0.5", active: true });
    await readyWhen(bus.platform.url, (b) => b.state === "ok", { after: new Date() });

    // A certificate cannot be issued for less than the CA's validity in years through the API, so the
    // expiry the scan reads is moved: 10 days ahead for the host, 60 for the CA.
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace("T", " ");
    sql(bus.platform, `UPDATE overlay_hosts SET not_after = '${inDays(10)}' WHERE id = '${host.id}'`);
    let { status, body } = await checkBecomes(bus.platform.url, "overlay_cert_expiry", "warn");
    expect(status).toBe(200);
    expect(checkOf(body, "overlay_cert_expiry").detail).toMatch(/1 host certificate\(s\) expired and 0|0 host certificate\(s\) expired and 1/);
    expect(checkOf(body, "overlay_cert_expiry").detail).not.toContain(organization.name as string);

    // The fix works: saving the host with an empty cert re-signs it for a fresh year.
    expect(checkOf(body, "overlay_cert_expiry").fix).toContain("empty cert");
    await su.collection("overlay_hosts").update(host.id, { cert: "" });
    await checkBecomes(bus.platform.url, "overlay_cert_expiry", "ok");

    sql(bus.platform, `UPDATE overlay_hosts SET not_after = '${inDays(10)}' WHERE id = '${host.id}'`);
    await checkBecomes(bus.platform.url, "overlay_cert_expiry", "warn");
    await su.collection("overlay_hosts").update(host.id, { active: false });
    ({ body } = await checkBecomes(bus.platform.url, "overlay_cert_expiry", "ok"));

    sql(bus.platform, `UPDATE overlay_ca SET not_after = '${inDays(60)}' WHERE id = '${ca.id}'`);
    ({ status, body } = await checkBecomes(bus.platform.url, "overlay_cert_expiry", "warn"));
    expect(status).toBe(200);
    expect(checkOf(body, "overlay_cert_expiry").detail).toContain("CA certificate");
    sql(bus.platform, `UPDATE overlay_ca SET not_after = '${inDays(-1)}' WHERE id = '${ca.id}'`);
    ({ body } = await checkBecomes(bus.platform.url, "overlay_cert_expiry", "warn", { after: new Date() }));
    expect(body.ready).toBe(true);
    sql(bus.platform, `UPDATE overlay_ca SET not_after = '${inDays(3650)}' WHERE id = '${ca.id}'`);
    await checkBecomes(bus.platform.url, "overlay_cert_expiry", "ok");
  });
});

describe("readiness before the first probe and with a check that hangs", () => {
  let platform: Platform;
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // A bus address that accepts connections and never says a word: bus_reachable hangs.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    platform = await startPlatform({ env: { PLATFORM_READINESS_INTERVAL: "250ms", PLATFORM_READINESS_TIMEOUT: "3s", PLATFORM_BUS_SERVER_URL: `nats://127.0.0.1:${port}` } });
  }, 60_000);
  afterAll(async () => {
    await platform?.stop();
    sockets.forEach((s) => s.destroy());
    silent?.close();
  });

  it("answers 503 saying readiness has not been probed yet, distinguishable from a failing check", async () => {
    const { status, body } = await getReady(platform.url);
    expect(status).toBe(503);
    expect(body).toMatchObject({ ready: false, state: "unprobed", detail: "readiness has not been probed yet", checked: null, checks: [] });
  });

  it("bounds the probe by readiness.timeout: the hung check fails, the others are reported, the snapshot arrives", async () => {
    const { status, body } = await readyWhen(platform.url, () => true, { withinMs: 10_000 });
    expect(status).toBe(503);
    const hung = checkOf(body, "bus_reachable");
    expect(hung.state).toBe("fail");
    expect(hung.detail).toMatch(/did not finish within 3s \(readiness\.timeout\)|still running since an earlier probe/);
    expect(checkOf(body, "database").state).toBe("ok");
    expect(parseDuration(body.took)).toBeLessThan(3_500);
  });

  it("keeps probing on schedule while the check hangs, never sending it twice at once", async () => {
    const seen = new Set<string>();
    const details: string[] = [];
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline) {
      const { body } = await getReady(platform.url);
      if (body.checked && !seen.has(body.checked)) {
        seen.add(body.checked);
        details.push(checkOf(body, "bus_reachable").detail ?? "");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Probes keep landing (the hung one runs at most the timeout each time) and say why.
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(details.some((d) => d.startsWith("still running since an earlier probe"))).toBe(true);
  });
});

describe("a check that throws", () => {
  const platform = usePlatform(() => ({ env: FAST_PROBES }));

  it("becomes fail with the error's message and no stack, and the process keeps serving", async () => {
    // The migrations table moved away under the running server: schema_version's query throws.
    sql(platform, "ALTER TABLE _migrations RENAME TO _migrations_moved_away");
    try {
      const { status, body } = await checkBecomes(platform.url, "schema_version", "fail");
      expect(status).toBe(503);
      const thrown = checkOf(body, "schema_version");
      expect(thrown.detail).toMatch(/^check panicked: .*no such table: _migrations/);
      expect(thrown.detail).not.toMatch(/\n|at .*\.js:\d+/);
      // The fix sends the reader to the log, which has the error with its stack.
      expect(thrown.fix).toMatch(/log/);
      expect(platform.log()).toMatch(/readiness: the schema_version check crashed: .*no such table: _migrations/);
      // Still serving, still probing.
      const later = await readyWhen(platform.url, () => true, { after: new Date() });
      expect(checkOf(later.body, "schema_version").state).toBe("fail");
      expect((await fetch(`${platform.url}/api/health`)).status).toBe(200);
    } finally {
      sql(platform, "ALTER TABLE _migrations_moved_away RENAME TO _migrations");
    }
    await checkBecomes(platform.url, "schema_version", "ok");
  });
});

describe("readiness of a database the platform schema was never imported into", () => {
  let platform: Platform;
  let noMigrations: string;
  beforeAll(async () => {
    noMigrations = mkdtempSync(join(tmpdir(), "readiness-no-migrations-"));
    platform = await startPlatform({ env: { ...FAST_PROBES, PB_MIGRATIONS_DIR: noMigrations } });
  }, 60_000);
  afterAll(async () => {
    await platform?.stop();
    rmSync(noMigrations, { recursive: true, force: true });
  });

  it("fails schema with the migrate command, and the checks that read the schema say why instead of crashing", async () => {
    const { status, body } = await readyWhen(platform.url, () => true);
    expect(status).toBe(503);
    const schema = checkOf(body, "schema");
    expect(schema).toMatchObject({ state: "fail", fix: "scripts/platform migrate up" });
    expect(schema.detail).toContain("missing collections: organizations");
    expect(checkOf(body, "bootstrap")).toMatchObject({ state: "fail", detail: expect.stringContaining("no user has is_operator set") });
    expect(checkOf(body, "bus_operator").state).toBe("fail");
    expect(checkOf(body, "bus_trust").state).toBe("skipped");
    expect(checkOf(body, "overlay_cert_expiry").state).toBe("skipped");
    for (const check of body.checks) expect(check.detail ?? "", check.name).not.toContain("panicked");
  });

  it("fails schema while platform collections exist without their fields", async () => {
    const su = await platform.superuser();
    await su.collections.create({ name: "organizations", type: "base", fields: [] });
    const { body } = await readyWhen(platform.url, (b) => (checkOf(b, "schema").detail ?? "").includes("organizations ("), { after: new Date() });
    expect(checkOf(body, "schema").detail).toMatch(/collections without their platform fields: .*organizations \(code, name/);
  });
});
