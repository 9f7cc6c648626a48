// Where the agent dials the hub: bus.servers as given, else the platform's host on the bus's client port.
// The platform writes its own TCP scheme `bus://` (spec 8.3 bus.server_url); the client library knows
// `nats://` (plain) and `tls://`, so `bus://` is read as `nats://`.
const DEFAULT_PORT = 4222;
const SCHEMES: Record<string, string> = { "bus:": "nats:", "nats:": "nats:", "tls:": "tls:" };

/** The client URLs to dial; throws an Error naming the entry when one has another scheme or no host. */
export function busServers(configured: readonly string[], platformUrl: string | undefined): string[] {
  if (configured.length > 0) return configured.map(clientUrl);
  if (!platformUrl) throw new Error("bus.servers is empty and there is no platform URL to derive the hub from");
  const host = new URL(platformUrl).hostname;
  if (!host) throw new Error(`the platform URL ${JSON.stringify(platformUrl)} names no host`);
  return [`nats://${host}:${DEFAULT_PORT}`];
}

function clientUrl(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`bus.servers entry ${JSON.stringify(entry)} is not a URL (nats://host:port, tls://host:port or bus://host:port)`);
  }
  const scheme = SCHEMES[url.protocol];
  if (!scheme) throw new Error(`bus.servers entry ${JSON.stringify(entry)} has scheme ${url.protocol} (nats://, tls:// or bus://)`);
  if (!url.hostname) throw new Error(`bus.servers entry ${JSON.stringify(entry)} names no host`);
  return `${scheme}//${url.port ? url.host : `${url.host}:${DEFAULT_PORT}`}`;
}
