// Where the sidecar's prober reaches this PocketBase: its own listener, read from the serve command line
// the way `serve` reads it (--http, --https, domains right after `serve`). Pure.

export interface SelfUrl {
  url: string;
  /** TLS only: the first domain, presented as the server name. */
  serverName?: string;
}

/** The value of `--name=v` or `--name v` in args, if given. */
function flagValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}` || args[i] === `-${name}`) return args[i + 1];
    const prefix = args[i].startsWith(`--${name}=`) ? `--${name}=` : args[i].startsWith(`-${name}=`) ? `-${name}=` : undefined;
    if (prefix) return args[i].slice(prefix.length);
  }
  return undefined;
}

/** A listen address made dialable from this machine: a wildcard or empty host becomes loopback. */
export function dialAddress(listen: string): string {
  const at = listen.lastIndexOf(":");
  const host = at < 0 ? "" : listen.slice(0, at);
  const port = at < 0 ? listen : listen.slice(at + 1);
  if (host === "" || host === "0.0.0.0") return `127.0.0.1:${port}`;
  if (host === "::" || host === "[::]") return `[::1]:${port}`;
  return `${host}:${port}`;
}

/** Flags of serve (PocketBase's and the platform's) that take no value; every other flag without "=" takes the next argument. */
const BOOLEAN_FLAGS = new Set(["dev", "automigrate", "hooksWatch", "indexFallback", "bus", "help", "h"]);

/** serve's positional arguments (its domains): cobra lets them stand among the flags. */
function positionals(args: readonly string[]): string[] {
  const serve = args.indexOf("serve");
  if (serve < 0) return [];
  const found: string[] = [];
  for (let i = serve + 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return [...found, ...args.slice(i + 1)];
    if (!arg.startsWith("-")) found.push(arg);
    else if (!arg.includes("=") && !BOOLEAN_FLAGS.has(arg.replace(/^--?/, ""))) i++; // skip its value
  }
  return found;
}

export function selfUrl(args: readonly string[]): SelfUrl {
  const domains = positionals(args);
  // PocketBase's serve: with domains, HTTPS on :443 (and HTTP on :80 for redirects) unless flags say otherwise.
  const https = flagValue(args, "https") ?? (domains.length > 0 ? "0.0.0.0:443" : undefined);
  if (https) return { url: `https://${dialAddress(https)}`, ...(domains[0] ? { serverName: domains[0] } : {}) };
  return { url: `http://${dialAddress(flagValue(args, "http") ?? "127.0.0.1:8090")}` };
}
