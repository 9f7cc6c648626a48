// A platform with a real bus: PocketBase configured with bus.server_url on a free port, and the pinned
// nats-server running the config `bus export` wrote for it. Plus small NATS client helpers for tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, credsAuthenticator, wsconnect, type NatsConnection } from "@nats-io/transport-node";
import { WebSocket as WsWebSocket } from "ws";
import { startPlatform, type Platform, type PlatformOptions } from "./platform";
import { freePorts } from "./ports";
import { startNatsServer, type NatsServer } from "./nats";

export interface BusPorts {
  port: number;
  websocket: number;
  leafnode: number;
  monitor: number;
}

export interface PlatformWithBus {
  platform: Platform;
  ports: BusPorts;
  busUrl: string;
  nats(): NatsServer;
  /** Starts nats-server from the exported folder (again, after stopNats). */
  startNats(): Promise<NatsServer>;
  stopNats(): Promise<void>;
  stop(): Promise<void>;
}

export interface PlatformWithBusOptions extends PlatformOptions {
  /**
   * Serve the hub's websocket listener as bus.websocket_urls (GET /api/client-config), as a browser dials
   * it: under two host names (one server, so one cluster), so a device override can pick one the console's
   * Content-Security-Policy admits.
   */
  advertiseWebsocket?: boolean;
}

export async function startPlatformWithBus(options: PlatformWithBusOptions = {}): Promise<PlatformWithBus> {
  // Reserved together with the platform's HTTP port, so no two of them can coincide.
  const [port, websocket, leafnode, monitor, http] = await freePorts(5);
  const ports: BusPorts = { port, websocket, leafnode, monitor };
  const busUrl = `nats://127.0.0.1:${ports.port}`;
  // The spec's alias scheme on purpose: hub_leaf_url must come out normalized.
  const advertised: Record<string, string> = options.advertiseWebsocket ? { PLATFORM_BUS_WEBSOCKET_URLS: `ws://127.0.0.1:${ports.websocket} ws://localhost:${ports.websocket}` } : {};
  const env = { PLATFORM_BUS_SERVER_URL: busUrl, PLATFORM_BUS_LEAF_URL: `bus-leaf://127.0.0.1:${ports.leafnode}`, ...advertised, ...options.env };
  const platform = await startPlatform({ port: http, ...options, env });
  const out = mkdtempSync(join(tmpdir(), "platform-bus-"));
  const exported = await platform.command([
    "bus", "export", "--out", out,
    "--port", String(ports.port),
    "--websocket-port", String(ports.websocket),
    "--leafnode-port", String(ports.leafnode),
    "--monitor-port", String(ports.monitor),
  ]);
  if (exported.code !== 0) throw new Error(`bus export failed: ${exported.stdout}${exported.stderr}`);
  let server: NatsServer | undefined = await startNatsServer({ configDir: out });
  return {
    platform,
    ports,
    busUrl,
    nats: () => {
      if (!server) throw new Error("nats-server is stopped");
      return server;
    },
    startNats: async () => (server = await startNatsServer({ configDir: out })),
    stopNats: async () => {
      await server?.stop();
      server = undefined;
    },
    stop: async () => {
      await server?.stop();
      await platform.stop();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/**
 * nats-server's answer when it could not verify a CONNECT in time (its auth timeout), the socket
 * dropped under the handshake (EPIPE/ECONNRESET writing CONNECT), or no INFO within the dial's timeout:
 * on a machine loaded by parallel test files that is the machine, not a verdict on the creds, so it is
 * tried again. A refusal of the creds ("Authorization Violation") is not among them and fails at once.
 */
const LOAD_FAILURE = /Authentication Timeout|EPIPE|ECONNRESET|^timeout$/i;
const CONNECT_ATTEMPTS = 3;

/** A client connection with a creds file, failing fast instead of retrying (a refusal is final at once). */
export async function connectWithCreds(url: string, creds: string): Promise<NatsConnection> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect({
        servers: url,
        authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
        reconnect: false,
        timeout: 2_000,
      });
    } catch (err) {
      if (attempt >= CONNECT_ATTEMPTS || !LOAD_FAILURE.test(err instanceof Error ? err.message : String(err))) throw err;
    }
  }
}

/**
 * A PING answered by the server's PONG, or a rejection once the server closes the connection instead.
 * nats.js (3.4) leaves a flush pending for ever when the server closes a connection made with
 * `reconnect: false` before answering its PING: a credential withdrawn under a check would hang the test.
 */
export async function roundTrip(nc: NatsConnection): Promise<void> {
  const closed = nc.closed().then((err) => Promise.reject(err ?? new Error("the server closed the connection")));
  await Promise.race([nc.flush(), closed]);
}

/** Whether the server admits the creds now: a connection opens and round-trips, then closes. */
export async function busAccepts(url: string, creds: string): Promise<boolean> {
  try {
    const nc = await connectWithCreds(url, creds);
    await roundTrip(nc);
    await nc.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * The same over the websocket listener (`ws://host:port`). Node 20 has no global WebSocket, which the
 * client's websocket transport expects: the ws package stands in for it when it is missing.
 */
export function wsConnectWithCreds(url: string, creds: string): Promise<NatsConnection> {
  if (typeof globalThis.WebSocket === "undefined") Object.assign(globalThis, { WebSocket: WsWebSocket });
  return wsconnect({
    servers: url,
    authenticator: credsAuthenticator(new TextEncoder().encode(creds)),
    reconnect: false,
    timeout: 2_000,
  });
}

/** Resolves true once the connection is closed by the server, false after `ms`. */
export async function closedWithin(nc: NatsConnection, ms: number): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
  return Promise.race([nc.closed().then(() => true as const), timeout]);
}

/** Polls `check` until it returns true or `ms` pass. */
export async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
