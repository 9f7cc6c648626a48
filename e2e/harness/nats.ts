// Starts the pinned bin/nats-server from a config folder (what `bus export` writes) or a config text, and
// reports where it listens. The server runs with its folder as working directory, so the relative
// resolver and jetstream paths of an exported config resolve inside it. Readiness and the actual ports
// come from nats-server's own ports file (written once every listener is up) and, for the leafnode port,
// from /varz. It runs under the same supervisor as `serve --bus`, holding this process's pipe on its
// stdin: a test worker that dies, however it dies, leaves no server behind.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { supervisorArgs } from "../../pb_hooks_src/bus/supervisor";
import { BIN, stop } from "./process";

export interface NatsServerOptions {
  /** A folder holding the config (`configFile`, default bus.conf); the caller owns it. */
  configDir?: string;
  /** Or a config text, written into a temporary folder that stop() removes. */
  configText?: string;
  configFile?: string;
  /** Another nats-server binary (default bin/nats-server). */
  binary?: string;
  timeoutMs?: number;
}

export interface NatsServer {
  /** nats://host:port of the client listener. */
  url: string;
  port: number;
  wsPort?: number;
  leafPort?: number;
  monitorPort?: number;
  /** http://host:port of monitoring, when configured. */
  monitorUrl?: string;
  /** nats-server's own pid (its supervisor is a bash process above it). */
  pid: number;
  configDir: string;
  /** The server's output so far. */
  log(): string;
  /** SIGTERM (SIGKILL after a grace period), then removes what the harness created. */
  stop(): Promise<void>;
}

interface PortsFile {
  nats?: string[];
  monitoring?: string[];
  websocket?: string[];
}

export async function startNatsServer(options: NatsServerOptions): Promise<NatsServer> {
  const configFile = options.configFile ?? "bus.conf";
  const owned: string[] = [];
  const scratch = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    owned.push(dir);
    return dir;
  };
  let configDir = options.configDir;
  if (configDir === undefined) {
    if (options.configText === undefined) throw new Error("startNatsServer needs configDir or configText");
    configDir = scratch("nats-config-");
    writeFileSync(join(configDir, configFile), options.configText);
  }
  const portsDir = scratch("nats-ports-");
  const cleanup = () => owned.forEach((dir) => rmSync(dir, { recursive: true, force: true }));

  const args = supervisorArgs(options.binary ?? BIN.natsServer, configFile, ["--ports_file_dir", portsDir]);
  const child = spawn("bash", args, { cwd: configDir, stdio: ["pipe", "pipe", "pipe"] });
  const halt = async () => {
    // End of file on the supervisor's stdin stops nats-server; stop() adds SIGTERM and a deadline.
    child.stdin.end();
    await stop(child, 12_000);
  };
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));

  let reported: { pid: number; ports: PortsFile };
  try {
    reported = await waitForPortsFile(portsDir, child, () => output, options.timeoutMs ?? 15_000);
  } catch (err) {
    await halt();
    cleanup();
    throw err;
  }
  const { pid, ports } = reported;
  const client = new URL(first(ports.nats, "nats"));
  const monitorUrl = ports.monitoring?.[0];
  const wsUrl = ports.websocket?.[0];
  return {
    url: `nats://${client.host}`,
    port: Number(client.port),
    wsPort: wsUrl ? Number(new URL(wsUrl).port) : undefined,
    leafPort: monitorUrl ? await leafPortOf(monitorUrl) : undefined,
    monitorPort: monitorUrl ? Number(new URL(monitorUrl).port) : undefined,
    monitorUrl,
    pid,
    configDir,
    log: () => output,
    stop: async () => {
      await halt();
      cleanup();
    },
  };
}

/** The ports file, named `<executable>_<pid>.ports`, once it is there and parses. */
async function waitForPortsFile(dir: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<{ pid: number; ports: PortsFile }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nats-server exited: ${output()}`);
    const file = readdirSync(dir).find((name) => name.endsWith(".ports"));
    if (file) {
      try {
        const pid = Number(/_(\d+)\.ports$/.exec(file)?.[1] ?? 0);
        return { pid, ports: JSON.parse(readFileSync(join(dir, file), "utf8")) as PortsFile };
      } catch {
        // not completely written yet
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nats-server did not report its ports within ${timeoutMs} ms: ${output()}`);
}

async function leafPortOf(monitorUrl: string): Promise<number | undefined> {
  const varz = (await (await fetch(`${monitorUrl}/varz`)).json()) as { leaf?: { port?: number } };
  return varz.leaf?.port || undefined;
}

function first(urls: string[] | undefined, what: string): string {
  const url = urls?.[0];
  if (!url) throw new Error(`nats-server reported no ${what} listener`);
  return url;
}
