// (c), (d), (e): native crypto reached from goja. All speak the wire format of native/ops.mjs: one JSON
// object {ops: [...]} in, {results: [...]} out, bytes as hex. A batch of ops costs one spawn or one request.
import { fromHex, hexFields, postJson, runWithStdin } from "./platform";
import type { Op, Result, Suite } from "./suite";

const encode = (ops: Op[]): string => JSON.stringify({ ops: ops.map(hexFields) });

const decode = (text: string): Result[] =>
  (JSON.parse(text) as { results: Record<string, string>[] }).results.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fromHex(v)])),
  );

/** (c), (e) One signer process per batch, secrets on stdin, killed by coreutils `timeout` if it hangs. */
export const spawnSuite =
  (argv: string[]): Suite =>
  (ops) =>
    decode(runWithStdin(["timeout", "-k", "1", "5", ...argv], encode(ops)));

/** (d) A long-running signer on loopback; Go's default HTTP client keeps the connection alive between calls. */
export const httpSuite =
  (url: string, token: string): Suite =>
  (ops) =>
    decode(postJson(url, encode(ops), { authorization: `Bearer ${token}` }));
