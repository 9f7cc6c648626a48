// Where the agent reaches its own leaf (the client listener, from the loopback side when it listens on a
// wildcard) and where the hub's leaf port is (host and port of hub_leaf_url).
import { listenAddress } from "../config/validate";

/** The leaf's client URL for the agent and the kv sync: a wildcard or blank host is dialed on loopback. */
export function localLeafUrl(listen: string): string {
  const address = listenAddress(listen);
  if (!address) throw new Error(`gateway.listen ${JSON.stringify(listen)} is not host:port`);
  const host = address.host;
  if (host === "" || host === "0.0.0.0") return `nats://127.0.0.1:${address.port}`;
  if (host === "::") return `nats://[::1]:${address.port}`;
  return `nats://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}

/** Default port of a leafnode remote without one (nats-server's). */
const LEAF_PORT = 7422;

/** host and port of a leafnode URL (`nats-leaf://`, `bus-leaf://`, `tls://`), or undefined when it names none. */
export function hubLeafAddress(url: string): { host: string; port: number } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!parsed.hostname) return undefined;
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port: parsed.port ? Number(parsed.port) : LEAF_PORT };
}
