// The bus server config against the real nats-server: `bus export` from a seeded operator row, the
// exported folder run as is (accounts pushed, withdrawn, still withdrawn after a restart, restored),
// and `serve --bus` supervising nats-server (up before the API, stopped with serve, never orphaned).
// The operator, signing key, system account and users are made here with @nats-io/nkeys and
// @nats-io/jwt, so these tests do not depend on the platform's own provisioning (except the one that
// checks `bus export` creates the operator when there is none yet).
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, closeSync, cpSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Algorithms, encodeAccount, encodeGeneric, encodeOperator, encodeUser, fmtCreds } from "@nats-io/jwt";
import { createAccount, createOperator, createUser, type KeyPair } from "@nats-io/nkeys";
import { connect, credsAuthenticator, type NatsConnection } from "@nats-io/transport-node";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { natsServerConfig } from "../../pb_hooks_src/bus/server-config";
import { startNatsServer, type NatsServer } from "../harness/nats";
import { LAUNCHER, SUPERUSER, launch, startPlatform, type Platform } from "../harness/platform";
import { freePort, freePorts } from "../harness/ports";
import { BIN, processesWithArgument, stop } from "../harness/process";
import { readyWhen } from "../harness/readiness";

const scratch = mkdtempSync(join(tmpdir(), "bus-export-"));
let seq = 0;
const dir = (name: string) => join(scratch, `${name}-${seq++}`);
const text = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).trim();

// Every limit spelled out: nats-server reads a missing limit as zero.
const UNLIMITED = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };

interface Identity {
  operator: KeyPair;
  signing: KeyPair;
  system: Account;
  operatorJwt: string;
  systemJwt: string;
  systemUserCreds: Uint8Array;
}

/** An account's identity key and the signing key its users are issued with. */
interface Account {
  identity: KeyPair;
  signing: KeyPair;
  pub: string;
}

function newAccount(): Account {
  const identity = createAccount();
  return { identity, signing: createAccount(), pub: identity.getPublicKey() };
}

/**
 * Operator with one signing key used strictly (as the platform signs), $SYS, and a system user. Under
 * strict_signing_key_usage nats-server also refuses users signed by an account's identity key: users
 * are issued by an account signing key (issuer_account set).
 */
async function newIdentity(): Promise<Identity> {
  const [operator, signing, system] = [createOperator(), createOperator(), newAccount()];
  const operatorFields = { signing_keys: [signing.getPublicKey()], system_account: system.pub, strict_signing_key_usage: true };
  const operatorJwt = await encodeOperator("test-operator", operator, operatorFields, { algorithm: Algorithms.v2 });
  const systemJwt = await encodeAccount("SYS", system.identity, { limits: UNLIMITED, signing_keys: [system.signing.getPublicKey()] }, { signer: signing });
  return { operator, signing, system, operatorJwt, systemJwt, systemUserCreds: await userCreds(system) };
}

async function userCreds(account: Account, user = createUser()): Promise<Uint8Array> {
  return fmtCreds(await encodeUser("user", user, account.pub, {}, { signer: account.signing }), user);
}

async function accountJwt(identity: Identity, account: Account, persistence = { disk_storage: -1, mem_storage: -1 }): Promise<string> {
  const claims = { limits: { ...UNLIMITED, ...persistence }, signing_keys: [account.signing.getPublicKey()] };
  return encodeAccount("tenant", account.identity, claims, { signer: identity.signing });
}

/** The withdrawal request: a generic claim self-signed by the operator signing key. */
async function deleteClaim(identity: Identity, accountPub: string): Promise<string> {
  return encodeGeneric("delete", identity.signing, "generic", { accounts: [accountPub] });
}

/** Makes the one bus_system_operator row hold this identity (the platform may have created one). */
async function seedOperatorRow(su: PocketBase, identity: Identity): Promise<void> {
  const seed = (kp: KeyPair) => new TextDecoder().decode(kp.getSeed());
  const row = {
    name: "test-operator",
    operator_pub: identity.operator.getPublicKey(),
    operator_jwt: identity.operatorJwt,
    operator_seed: seed(identity.operator),
    signing_key_pub: identity.signing.getPublicKey(),
    signing_seed: seed(identity.signing),
    sys_account_pub: identity.system.pub,
    sys_account_jwt: identity.systemJwt,
    sys_account_seed: seed(identity.system.identity),
    sys_user_creds: new TextDecoder().decode(identity.systemUserCreds),
  };
  const existing = await su.collection("bus_system_operator").getFullList();
  if (existing.length === 0) await su.collection("bus_system_operator").create(row);
  else await su.collection("bus_system_operator").update(existing[0].id, row);
}

interface Exported {
  dir: string;
  port: number;
  wsPort: number;
  leafPort: number;
  monitorPort: number;
}

async function exportFolder(platform: Platform, extra: string[] = []): Promise<Exported> {
  const [port, wsPort, leafPort, monitorPort] = await freePorts(4);
  const out = dir("bus");
  const flags = ["--port", port, "--websocket-port", wsPort, "--leafnode-port", leafPort, "--monitor-port", monitorPort].map(String);
  const result = await platform.command(["bus", "export", "--out", out, ...flags, ...extra]);
  if (result.code !== 0) throw new Error(`bus export failed: ${text(result)}`);
  return { dir: out, port, wsPort, leafPort, monitorPort };
}

async function sysRequest(nc: NatsConnection, subject: string, body: string): Promise<{ data?: { code?: number; message?: string }; error?: { description?: string } }> {
  const reply = await nc.request(subject, body, { timeout: 5_000 });
  return reply.json();
}

/** The system user's creds, written beside the exported folder (never inside it). */
function systemCredsFile(exported: Exported): string {
  const path = join(exported.dir, "..", `sys-${seq++}.creds`);
  writeFileSync(path, identity.systemUserCreds, { mode: 0o600 });
  return path;
}

async function connectSystem(server: NatsServer, credsFile: string): Promise<NatsConnection> {
  return connect({ servers: server.url, authenticator: credsAuthenticator(readFileSync(credsFile)) });
}

async function connectUser(server: NatsServer, creds: Uint8Array): Promise<NatsConnection> {
  return connect({ servers: server.url, authenticator: credsAuthenticator(creds), reconnect: false, timeout: 5_000 });
}

/** The first bytes a TCP listener sends (NATS and leafnode listeners greet with INFO). */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, "127.0.0.1");
    socket.setTimeout(5_000, () => socket.destroy(new Error("no greeting")));
    socket.once("data", (d) => {
      socket.destroy();
      resolve(d.toString());
    });
    socket.once("error", reject);
  });
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await greeting(port)).startsWith("INFO ");
  } catch {
    return false;
  }
}

const platform = {} as Platform;
let identity: Identity;
beforeAll(async () => {
  Object.assign(platform, await startPlatform());
  identity = await newIdentity();
  await seedOperatorRow(await platform.superuser(), identity);
}, 120_000);
afterAll(async () => {
  await platform.stop?.();
  rmSync(scratch, { recursive: true, force: true });
});

describe("bus export", () => {
  it("writes a self-contained folder whose config holds no seed and no system user creds", async () => {
    const exported = await exportFolder(platform, ["--domain", "hubtest"]);
    expect(readdirSync(exported.dir).sort()).toEqual(["bus.conf", "jetstream", "resolver"]);
    const config = readFileSync(join(exported.dir, "bus.conf"), "utf8");
    expect(config).toContain(`operator: "${identity.operatorJwt}"`);
    expect(config).toContain(`system_account: "${identity.system.pub}"`);
    expect(config).toContain('dir: "resolver"');
    expect(config).toContain('store_dir: "jetstream"');
    expect(config).not.toMatch(/\bS[OAU][A-Z2-7]{50,}/);
    expect(config).not.toContain("NATS USER JWT");
    expect(config).not.toContain(exported.dir);
  });

  it("runs in the pinned nats-server: accounts are pushed, withdrawn, stay withdrawn across a restart, and come back", async () => {
    const exported = await exportFolder(platform);
    const credsFile = systemCredsFile(exported);
    let server = await startNatsServer({ configDir: exported.dir });
    const connections: NatsConnection[] = [];
    try {
      expect(server.port).toBe(exported.port);
      const sys = await connectSystem(server, credsFile);
      connections.push(sys);

      const tenant = newAccount();
      const tenantJwt = await accountJwt(identity, tenant);
      const pushed = await sysRequest(sys, "$SYS.REQ.CLAIMS.UPDATE", tenantJwt);
      expect(pushed.error).toBeUndefined();
      expect(pushed.data?.code).toBe(200);
      expect(JSON.stringify(await sysRequest(sys, "$SYS.REQ.CLAIMS.LIST", ""))).toContain(tenant.pub);

      const creds = await userCreds(tenant);
      const user = await connectUser(server, creds);
      connections.push(user);
      const echo = user.subscribe("ping", { max: 1 });
      user.publish("ping", "hello");
      for await (const m of echo) expect(m.string()).toBe("hello");

      const withdrawn = await sysRequest(sys, "$SYS.REQ.CLAIMS.DELETE", await deleteClaim(identity, tenant.pub));
      expect(withdrawn.error).toBeUndefined();
      expect(withdrawn.data?.message).toContain("deleted 1 accounts");
      const disconnected = await Promise.race([user.closed().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]);
      expect(disconnected).toBe(true);
      await expect(connectUser(server, creds)).rejects.toThrow(/authorization/i);

      await sys.close();
      await server.stop();
      server = await startNatsServer({ configDir: exported.dir });
      const afterRestart = await connectSystem(server, credsFile);
      connections.push(afterRestart);
      await expect(connectUser(server, creds)).rejects.toThrow(/authorization/i);
      const stored = await sysRequest(afterRestart, "$SYS.REQ.CLAIMS.LIST", "");
      expect(JSON.stringify(stored)).not.toContain(tenant.pub);
      // allow_delete without hard_delete renames the JWT aside: kept for the record, never loaded.
      expect(existsSync(join(exported.dir, "resolver", `${tenant.pub}.jwt`))).toBe(false);
      expect(existsSync(join(exported.dir, "resolver", `${tenant.pub}.jwt.deleted`))).toBe(true);

      // Spec 3.2: a restored claim makes the existing creds valid again.
      expect((await sysRequest(afterRestart, "$SYS.REQ.CLAIMS.UPDATE", tenantJwt)).error).toBeUndefined();
      const back = await connectUser(server, creds);
      connections.push(back);
      expect(back.isClosed()).toBe(false);
    } finally {
      await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
      await server.stop();
    }
  });

  it("enables JetStream for every tenant: their persistence limits are caps, not reservations of the disk", async () => {
    const exported = await exportFolder(platform);
    const server = await startNatsServer({ configDir: exported.dir });
    const connections: NatsConnection[] = [];
    try {
      const sys = await connectSystem(server, systemCredsFile(exported));
      connections.push(sys);
      // Caps of 64 TiB each: past the free disk of any machine, as 5 GiB caps are past it from the
      // eleventh tenant on a disk with 73 GB free, where nats-server then left JetStream off.
      const persistence = { disk_storage: 64 * 1024 ** 4, mem_storage: 64 * 1024 ** 2 };
      for (let tenant = 0; tenant < 3; tenant++) {
        const account = newAccount();
        expect((await sysRequest(sys, "$SYS.REQ.CLAIMS.UPDATE", await accountJwt(identity, account, persistence))).error).toBeUndefined();
        const user = await connectUser(server, await userCreds(account));
        connections.push(user);
        const info = (await user.request("$JS.API.INFO", "", { timeout: 5_000 })).json<{ error?: unknown; limits?: { max_storage: number } }>();
        expect(info.error, `tenant ${tenant}`).toBeUndefined();
        expect(info.limits?.max_storage).toBe(persistence.disk_storage);
      }
    } finally {
      await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
      await server.stop();
    }
  });

  it("listens for websockets and leaf nodes, and monitoring reports the JetStream domain", async () => {
    const exported = await exportFolder(platform, ["--domain", "hubtest", "--server-name", "hub-e2e"]);
    const server = await startNatsServer({ configDir: exported.dir });
    try {
      expect([server.wsPort, server.leafPort, server.monitorPort]).toEqual([exported.wsPort, exported.leafPort, exported.monitorPort]);
      // A plain GET is answered by the websocket listener's HTTP server (it is not an upgrade).
      const ws = await fetch(`http://127.0.0.1:${exported.wsPort}/`);
      expect(ws.status).toBeGreaterThanOrEqual(400);
      expect(await greeting(exported.leafPort)).toMatch(/^INFO \{/);
      const varz = (await (await fetch(`http://127.0.0.1:${exported.monitorPort}/varz`)).json()) as {
        server_name: string;
        jetstream: { config: { domain: string } };
        websocket: { port: number };
        leaf: { port: number };
      };
      expect(varz.server_name).toBe("hub-e2e");
      expect(varz.jetstream.config.domain).toBe("hubtest");
      expect(varz.websocket.port).toBe(exported.wsPort);
      expect(varz.leaf.port).toBe(exported.leafPort);
    } finally {
      await server.stop();
    }
  });

  it("writes hostile paths so that nats-server reads them back exactly", async () => {
    const base = dir("paths");
    const jetstreamDir = join(base, 'js "quoted" {braced}\n$HOME #not-a-comment \\ end');
    const resolverDir = join(base, "resolver 'single' } {");
    const [port, websocketPort, leafnodePort, monitorPort] = await freePorts(4);
    const configText = natsServerConfig({
      serverName: "paths",
      host: "127.0.0.1",
      port,
      websocketPort,
      leafnodePort,
      monitorHost: "127.0.0.1",
      monitorPort,
      operatorJwt: identity.operatorJwt,
      systemAccountPub: identity.system.pub,
      systemAccountJwt: identity.systemJwt,
      resolverDir,
      jetstreamDir,
      domain: "hub",
    });
    const server = await startNatsServer({ configText });
    try {
      const varz = (await (await fetch(`${server.monitorUrl}/varz`)).json()) as { jetstream: { config: { store_dir: string } } };
      expect(varz.jetstream.config.store_dir).toBe(join(jetstreamDir, "jetstream"));
      expect(existsSync(resolverDir)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("creates the operator on first need when there is no row yet", async () => {
    const empty = await startPlatform();
    try {
      const su = await empty.superuser();
      for (const row of await su.collection("bus_system_operator").getFullList()) await su.collection("bus_system_operator").delete(row.id);
      const out = dir("first-need");
      const result = await empty.command(["bus", "export", "--out", out]);
      expect(result.code, text(result)).toBe(0);
      const rows = await su.collection("bus_system_operator").getFullList();
      expect(rows).toHaveLength(1);
      expect(readFileSync(join(out, "bus.conf"), "utf8")).toContain(`operator: "${rows[0].operator_jwt as string}"`);
    } finally {
      await empty.stop();
    }
  });

  it("fails with one clear line before `migrate up`", async () => {
    const result = await launch(["bus", "export", "--out", dir("unmigrated")], { ...process.env, PB_DATA_DIR: dir("unmigrated-data") }, scratch);
    expect(result.code).not.toBe(0);
    const lines = text(result).split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("migrate up");
  });

  it("fails with one clear line without --out", async () => {
    const result = await platform.command(["bus", "export"]);
    expect(result.code).not.toBe(0);
    expect(text(result).split("\n")).toEqual([expect.stringContaining("--out")]);
  });
});

// ---------------------------------------------------------------------------------------------------
// serve --bus

interface Served {
  child: ChildProcess;
  httpUrl: string;
  output(): string;
  exited: Promise<number | null>;
}

function serveBus(exported: Exported, env: Record<string, string> = {}, serverUrlPort = exported.port): Promise<Served> {
  return freePort().then((httpPort) => {
    const child = spawn(LAUNCHER, ["serve", "--http", `127.0.0.1:${httpPort}`, "--bus", "--bus-config", join(exported.dir, "bus.conf")], {
      env: { ...process.env, PB_DATA_DIR: dir("data"), PLATFORM_BUS_SERVER_URL: `nats://127.0.0.1:${serverUrlPort}`, ...env },
      cwd: scratch,
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, httpUrl: `http://127.0.0.1:${httpPort}`, output: () => output, exited };
  });
}

async function apiAnswers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}


async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return condition();
}

describe("serve --bus", () => {
  it("answers the API only after nats-server listens", async () => {
    const exported = await exportFolder(platform);
    // A nats-server that takes two seconds to start: the API must wait for it.
    const slow = join(exported.dir, "..", `slow-nats-${seq++}`);
    writeFileSync(slow, `#!/bin/sh\nsleep 2\nexec "${BIN.natsServer}" "$@"\n`);
    chmodSync(slow, 0o755);
    const served = await serveBus(exported, { NATS_SERVER_BIN: slow });
    try {
      let natsFirst = false;
      const up = await until(async () => {
        if (!(await apiAnswers(served.httpUrl))) return false;
        natsFirst = await answers(exported.port);
        return true;
      }, 30_000);
      expect(up, served.output()).toBe(true);
      expect(natsFirst).toBe(true);
      expect(served.output()).toContain(`bus: nats-server answers on 127.0.0.1:${exported.port}`);
    } finally {
      await stop(served.child);
    }
  });

  it("publishes every bus account at start to the nats-server it has just started, before it first reports readiness", async () => {
    // A bootstrapped data directory whose accounts were never confirmed (no bus ran), served with --bus.
    const env = { ...process.env, PB_DATA_DIR: dir("bootstrapped"), PLATFORM_BUS_SERVER_URL: "nats://127.0.0.1:1" };
    const [port, wsPort, leafPort, monitorPort] = await freePorts(4);
    const exported: Exported = { dir: dir("bus"), port, wsPort, leafPort, monitorPort };
    for (const step of [
      ["migrate", "up"],
      ["superuser", "upsert", SUPERUSER.email, SUPERUSER.password],
      ["bootstrap", "--email", "operator@example.test", "--password", "operator-password-1", "--org", "System", "--operator-org", "Operators"],
      ["bus", "export", "--out", exported.dir, ...["--port", port, "--websocket-port", wsPort, "--leafnode-port", leafPort, "--monitor-port", monitorPort].map(String)],
    ]) {
      const result = await launch(step, env, scratch);
      expect(result.code, text(result)).toBe(0);
    }
    const served = await serveBus(exported, { PB_DATA_DIR: env.PB_DATA_DIR });
    try {
      expect(await until(() => apiAnswers(served.httpUrl), 30_000), served.output()).toBe(true);
      // The sidecar announces itself once PocketBase listens, the accounts converge, and only then does the
      // first probe run: any probed snapshot comes after the start's publication.
      await readyWhen(served.httpUrl, () => true, { withinMs: 30_000 });
      const pb = new PocketBase(served.httpUrl);
      await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const accounts = await pb.collection("bus_accounts").getFullList();
      expect(accounts.length).toBeGreaterThan(0);
      expect(accounts.map((a) => [a.bus_confirmed, a.bus_status])).toEqual(accounts.map((a) => [true, a.bus_status]));
      expect(served.output()).not.toContain("not confirmed by the bus");
    } finally {
      await stop(served.child);
    }
  });

  it("writes nats-server's log whole into serve's output, also a file serve's own writes do not append to", async () => {
    const exported = await exportFolder(platform);
    const logPath = join(exported.dir, "..", `serve-${seq++}.log`);
    // What `serve … > serve.log` gives: a file opened for writing, not appending.
    const log = openSync(logPath, "w");
    const httpPort = await freePort();
    const child = spawn(LAUNCHER, ["serve", "--http", `127.0.0.1:${httpPort}`, "--bus", "--bus-config", join(exported.dir, "bus.conf")], {
      env: { ...process.env, PB_DATA_DIR: dir("data"), PLATFORM_BUS_SERVER_URL: `nats://127.0.0.1:${exported.port}` },
      cwd: scratch,
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    try {
      expect(await until(() => apiAnswers(`http://127.0.0.1:${httpPort}`), 30_000)).toBe(true);
      await until(() => readFileSync(logPath, "utf8").includes("Server is ready"), 5_000);
      const written = readFileSync(logPath, "utf8");
      expect(written).toContain("Server started at");
      for (const line of ["[INF] Starting nats-server", "[INF] Using configuration file", "[INF] Server is ready"]) expect(written, written).toContain(line);
    } finally {
      await stop(child);
    }
  });

  it("stops nats-server when serve stops (SIGTERM)", async () => {
    const exported = await exportFolder(platform);
    const configPath = join(exported.dir, "bus.conf");
    const served = await serveBus(exported);
    expect(await until(() => apiAnswers(served.httpUrl), 30_000), served.output()).toBe(true);
    expect(processesWithArgument(configPath).length).toBeGreaterThan(0);
    served.child.kill("SIGTERM");
    await served.exited;
    // onTerminate waited for the supervisor and nats-server to exit.
    expect(processesWithArgument(configPath)).toEqual([]);
    expect(await answers(exported.port)).toBe(false);
  });

  it("leaves no nats-server behind when PocketBase is killed with SIGKILL", async () => {
    const exported = await exportFolder(platform);
    const configPath = join(exported.dir, "bus.conf");
    const served = await serveBus(exported);
    expect(await until(() => apiAnswers(served.httpUrl), 30_000), served.output()).toBe(true);
    expect(await answers(exported.port)).toBe(true);
    served.child.kill("SIGKILL");
    await served.exited;
    expect(await until(() => processesWithArgument(configPath).length === 0, 5_000)).toBe(true);
    expect(await answers(exported.port)).toBe(false);
  });

  it("refuses to start with one clear line when the config's port differs from bus.server_url", async () => {
    const exported = await exportFolder(platform);
    const served = await serveBus(exported, {}, exported.port + 1);
    const code = await served.exited;
    expect(code).not.toBe(0);
    const lines = served.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`listens on port ${exported.port}`);
    expect(lines[0]).toContain(`dials port ${exported.port + 1}`);
    expect(processesWithArgument(join(exported.dir, "bus.conf"))).toEqual([]);
  });

  it("refuses to start with one clear line when bus.server_url names several servers: serve --bus runs one", async () => {
    const exported = await exportFolder(platform);
    const several = `nats://127.0.0.1:${exported.port} nats://u:secret@127.0.0.1:${exported.port + 1}`;
    const served = await serveBus(exported, { PLATFORM_BUS_SERVER_URL: several });
    expect(await served.exited).toBe(2);
    const lines = served.output().trim().split("\n");
    expect(lines).toEqual([expect.stringContaining("serve --bus runs one bus server, but bus.server_url names 2")]);
    expect(lines[0]).not.toContain("secret");
    expect(processesWithArgument(join(exported.dir, "bus.conf"))).toEqual([]);
  });

  it("refuses to start when bus.persist_domain is not the config's JetStream domain, which sites would be told", async () => {
    const exported = await exportFolder(platform);
    const served = await serveBus(exported, { PLATFORM_BUS_PERSIST_DOMAIN: "elsewhere" });
    expect(await served.exited).toBe(2);
    const lines = served.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `configuration refused: bus.embedded_config ${join(exported.dir, "bus.conf")} has the JetStream domain "hub" but bus.persist_domain is "elsewhere", which sites are told to use: make them the same`,
    );
    expect(processesWithArgument(join(exported.dir, "bus.conf"))).toEqual([]);
  });

  /** Serves with --bus, expects it to stop by itself with `message` among its lines; the time it took. */
  async function refusedStart(exported: Exported, message: string, env: Record<string, string> = {}): Promise<number> {
    const started = Date.now();
    const served = await serveBus(exported, env);
    const code = await served.exited;
    expect(code, served.output()).not.toBe(0);
    expect(served.output()).toContain(message);
    expect(served.output()).not.toMatch(/\bat .*\.js:\d+/);
    expect(processesWithArgument(join(exported.dir, "bus.conf"))).toEqual([]);
    return Date.now() - started;
  }

  it("refuses a config that nats-server rejects, with nats-server's own complaint", async () => {
    const exported = await exportFolder(platform);
    writeFileSync(join(exported.dir, "bus.conf"), `${readFileSync(join(exported.dir, "bus.conf"), "utf8")}\nunclosed {\n`);
    await refusedStart(exported, `serve --bus: nats-server refused ${join(exported.dir, "bus.conf")}: `);
  });

  it("refuses to start when something already listens on the bus port", async () => {
    const exported = await exportFolder(platform);
    const squatter = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(exported.port, "127.0.0.1", resolve));
    try {
      await refusedStart(exported, `serve --bus: something already listens on 127.0.0.1:${exported.port}; stop it or choose another port`);
    } finally {
      squatter.close();
    }
  });

  it("stops at once, not after its 30 s wait, when nats-server exits before it answers", async () => {
    const exported = await exportFolder(platform);
    // Passes the config test, then dies on start.
    const crashing = join(exported.dir, "..", `crashing-nats-${seq++}`);
    writeFileSync(crashing, `#!/bin/sh\n[ "$1" = -t ] && exec "${BIN.natsServer}" "$@"\necho "crashed on start" >&2\nexit 3\n`);
    chmodSync(crashing, 0o755);
    const took = await refusedStart(exported, "serve --bus: nats-server exited before it answered (its log is above)", { NATS_SERVER_BIN: crashing });
    expect(took).toBeLessThan(20_000);
  });

  it("acts only for serve: another command with --bus starts no bus server", async () => {
    const exported = await exportFolder(platform);
    const result = await platform.command(["migrate", "up", "--bus", "--bus-config", join(exported.dir, "bus.conf")]);
    expect(result.code, text(result)).toBe(0);
    expect(text(result)).not.toContain("nats-server");
  });
});

describe("the nats-server harness", () => {
  it("reports nats-server's own complaint when it refuses a config", async () => {
    await expect(startNatsServer({ configText: "port: 4222\nfoo {\n" })).rejects.toThrow(/Parse error on line 3/);
  });
});

// The copied folder keeps a relative layout: it can be moved and still runs.
describe("an exported folder", () => {
  it("runs after being moved elsewhere", async () => {
    const exported = await exportFolder(platform);
    const moved = dir("moved");
    cpSync(exported.dir, moved, { recursive: true });
    rmSync(exported.dir, { recursive: true, force: true });
    const server = await startNatsServer({ configDir: moved });
    try {
      expect(server.port).toBe(exported.port);
      expect(existsSync(join(moved, "jetstream", "jetstream"))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
