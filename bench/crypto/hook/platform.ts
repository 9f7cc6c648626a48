// Typed access to the few PocketBase JSVM (goja) globals the bench uses. They are declared module-scoped,
// not global, so this code also type-checks under the repo's Node tsconfig (which includes bench/**) without
// leaking goja names into Node code.
declare const $security: { randomStringWithAlphabet(length: number, alphabet: string): string };
declare const $http: {
  send(config: { url: string; method: string; body: string; headers: Record<string, string>; timeout: number }): {
    statusCode: number;
    body: GoBytes;
  };
};
declare const $os: { cmd(name: string, ...args: string[]): GoCmd };
declare const toBytes: (s: string) => GoBytes;
declare const toString: (b: GoBytes) => string;
declare class DateTime {
  time(): { unixMicro(): number };
}
declare const __hooks: string;
declare const require: (path: string) => unknown;
declare const process: { env: Record<string, string | undefined> };

type GoBytes = { readonly __goBytes: unique symbol };
interface GoCmd {
  stdinPipe(): { write(b: GoBytes): number; close(): void };
  output(): GoBytes;
}

export const env = (name: string): string => process.env[name] ?? "";

/** Requires a bundle from the hooks' lib dir (goja's require caches it per VM). */
export const requireLib = <T>(name: string): T => require(`${__hooks}/lib/${name}.js`) as T;

/** Wall clock in microseconds: goja has no `performance`, and Date.now() is only millisecond-grained. */
export const nowMicros = (): number => new DateTime().time().unixMicro();

/** goja has no crypto.getRandomValues; $security draws from Go's crypto/rand. */
export const randomBytes = (n: number): Uint8Array =>
  fromHex($security.randomStringWithAlphabet(2 * n, "0123456789abcdef"));

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}

/** A copy of `o` with every byte-array field as hex, for JSON. */
export const hexFields = (o: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v instanceof Uint8Array ? toHex(v) : v]));

export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/**
 * Runs a program with `input` on its stdin and returns its stdout. Secrets go through stdin because argv is
 * visible to every local user (ps, /proc). The input is written into the pipe before the child starts; that
 * is safe while it fits the kernel pipe buffer (64 KiB on Linux), which our few hundred bytes do.
 */
export function runWithStdin(argv: string[], input: string): string {
  const cmd = $os.cmd(argv[0], ...argv.slice(1));
  const stdin = cmd.stdinPipe();
  stdin.write(toBytes(input));
  stdin.close();
  return toString(cmd.output());
}

/** POSTs a JSON body and returns the response text; throws on a non-200 status. */
export function postJson(url: string, body: string, headers: Record<string, string>): string {
  const res = $http.send({
    url,
    method: "POST",
    body,
    headers: { ...headers, "content-type": "application/json" },
    timeout: 5, // whole seconds
  });
  const text = toString(res.body);
  if (res.statusCode !== 200) throw new Error(`${url}: HTTP ${res.statusCode}: ${text}`);
  return text;
}
