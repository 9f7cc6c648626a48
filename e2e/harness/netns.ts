// Network namespaces for tests that run real Nebula tunnels: a star of namespaces joined by a bridge that
// lives in its own namespace, so nothing is added to the root namespace (deleting the namespaces removes
// every veth and the bridge with them). Addresses are 192.0.2.0/24 (TEST-NET-1), inside the namespaces only.
// Needs root and /dev/net/tun; setUp throws a clear error otherwise (a test must fail, not skip).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

export interface Namespace {
  /** The namespace's name for `ip netns exec`. */
  name: string;
  /** Its underlay address (no prefix). */
  address: string;
}

export interface Star {
  bridge: string;
  members: Namespace[];
}

function ip(args: string[]): { code: number | null; out: string } {
  const r = spawnSync("ip", args, { encoding: "utf8", timeout: 10_000 });
  return { code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

function must(args: string[]): void {
  const r = ip(args);
  if (r.code !== 0) throw new Error(`network namespaces cannot be set up here (needs root and iproute2): \`ip ${args.join(" ")}\` failed: ${r.out.trim()}`);
}

/**
 * Creates `<prefix>br` (holding bridge br0) and one namespace per address, each with eth0 on the bridge
 * and its address /24. Namespace names contain the prefix (callers include process.pid).
 */
export function createStar(prefix: string, addresses: string[]): Star {
  if (process.getuid && process.getuid() !== 0) throw new Error(`network namespaces need root (running as uid ${process.getuid()})`);
  if (!existsSync("/dev/net/tun")) throw new Error("/dev/net/tun is missing: Nebula cannot create its tun device");
  const bridge = `${prefix}br`;
  const members = addresses.map((address, i) => ({ name: `${prefix}n${i}`, address }));
  const star: Star = { bridge, members };
  try {
    must(["netns", "add", bridge]);
    must(["-n", bridge, "link", "add", "br0", "type", "bridge"]);
    must(["-n", bridge, "link", "set", "br0", "up"]);
    for (const [i, m] of members.entries()) {
      must(["netns", "add", m.name]);
      // The veth pair is created directly across the two namespaces: no name ever exists in the root one.
      must(["-n", m.name, "link", "add", "eth0", "type", "veth", "peer", "name", `p${i}`, "netns", bridge]);
      must(["-n", bridge, "link", "set", `p${i}`, "master", "br0", "up"]);
      must(["-n", m.name, "addr", "add", `${m.address}/24`, "dev", "eth0"]);
      must(["-n", m.name, "link", "set", "eth0", "up"]);
      must(["-n", m.name, "link", "set", "lo", "up"]);
    }
  } catch (err) {
    destroyStar(star);
    throw err;
  }
  return star;
}

/** Deletes every namespace of the star (and with them the veths and the bridge); never throws. */
export function destroyStar(star: Star | undefined): void {
  if (!star) return;
  for (const name of [...star.members.map((m) => m.name), star.bridge]) ip(["netns", "del", name]);
}

/** Starts `command args` inside namespace `ns`; output is collected into `log()`. */
export function spawnIn(ns: string, command: string, args: string[]): { child: ChildProcess; log: () => string } {
  // `ip netns exec` execs the command, so the child's pid is the command's own.
  const child = spawn("ip", ["netns", "exec", ns, command, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("error", (err) => (out += `\nspawn error: ${err}`));
  return { child, log: () => out };
}

/** Runs a command to completion inside `ns`, bounded by `timeoutMs`. */
export function runIn(ns: string, command: string, args: string[], timeoutMs = 10_000): { code: number | null; out: string } {
  const r = spawnSync("ip", ["netns", "exec", ns, command, ...args], { encoding: "utf8", timeout: timeoutMs });
  return { code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

/** One ICMP echo from inside `ns` to `target` (the only protocol the issued configs' inbound firewall admits). */
export function pingOnce(ns: string, target: string): boolean {
  return runIn(ns, "ping", ["-n", "-c", "1", "-W", "1", target], 5_000).code === 0;
}

/** Pings until one echo comes back or `withinMs` passes; true when one did. */
export async function reaches(ns: string, target: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (pingOnce(ns, target)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone (bounded). */
export async function stopProcess(child: ChildProcess | undefined, graceMs = 3_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs + 2_000))]);
  clearTimeout(timer);
}
