// Network namespaces for tests. For real Nebula tunnels: a star of namespaces joined by a bridge that
// lives in its own namespace, so nothing is added to the root namespace (deleting the namespaces removes
// every veth and the bridge with them). Addresses are 192.0.2.0/24 (TEST-NET-1), inside the namespaces only.
// For a path the test cuts silently: a link, one namespace joined to the root one (see createLink).
// Needs root (and /dev/net/tun for the star); setUp throws a clear error otherwise (a test must fail, not skip).
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

/**
 * One namespace joined to the root namespace by a veth pair, for a path that must cross a link the test
 * can cut while the processes at both ends live on: the pair is the only thing in the root namespace and
 * goes away with the namespace (destroyLink deletes both anyway). Addresses are a /30 of 198.51.100.0/24
 * (TEST-NET-2, apart from the stars' TEST-NET-1), picked from the pid so parallel runs do not collide.
 */
export interface Link {
  /** The namespace (`ip netns exec` name). */
  ns: string;
  /** The root namespace's end of the pair. */
  hostDevice: string;
  hostAddress: string;
  /** The namespace's end (eth0) address. */
  nsAddress: string;
}

export function createLink(prefix: string): Link {
  if (process.getuid && process.getuid() !== 0) throw new Error(`network namespaces need root (running as uid ${process.getuid()})`);
  const base = 4 * (process.pid % 64);
  const link: Link = { ns: `${prefix}n`, hostDevice: `${prefix}h`, hostAddress: `198.51.100.${base + 1}`, nsAddress: `198.51.100.${base + 2}` };
  try {
    must(["netns", "add", link.ns]);
    must(["link", "add", link.hostDevice, "type", "veth", "peer", "name", "eth0", "netns", link.ns]);
    must(["addr", "add", `${link.hostAddress}/30`, "dev", link.hostDevice]);
    must(["link", "set", link.hostDevice, "up"]);
    must(["-n", link.ns, "addr", "add", `${link.nsAddress}/30`, "dev", "eth0"]);
    must(["-n", link.ns, "link", "set", "eth0", "up"]);
    must(["-n", link.ns, "link", "set", "lo", "up"]);
  } catch (err) {
    destroyLink(link);
    throw err;
  }
  return link;
}

/**
 * Cuts or restores the link on the namespace's side: the root end loses its carrier and what it sends is
 * dropped, no RST, no FIN, no ICMP, so a TCP connection across it goes silent rather than closed.
 */
export function setLinkUp(link: Link, up: boolean): void {
  must(["-n", link.ns, "link", "set", "eth0", up ? "up" : "down"]);
}

/** Deletes the namespace and the root end of the pair; never throws. */
export function destroyLink(link: Link | undefined): void {
  if (!link) return;
  ip(["link", "del", link.hostDevice]);
  ip(["netns", "del", link.ns]);
}

/**
 * A byte relay (e2e/harness/relay.mjs) from `listen` to `target` (host:port or a unix socket path), inside
 * namespace `ns` when given; resolves once it listens. Stop it with stopProcess.
 */
export async function startRelay(listen: string, target: string, ns?: string): Promise<ChildProcess> {
  const script = new URL("./relay.mjs", import.meta.url).pathname;
  const args = [script, listen, target];
  const child = ns ? spawnIn(ns, process.execPath, args).child : spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    // Once it listens, a later exit (the stop at the end) settles nothing more.
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`relay ${listen} -> ${target} ${why}: ${out}`));
    };
    const timer = setTimeout(() => fail("not listening after 10 s"), 10_000);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => fail(`exited (${code})`));
  });
  return child;
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
