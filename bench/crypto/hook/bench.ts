// The bench driver, run inside goja by the `cryptobench` command (hook/main.pb.js). Bundled alone into
// lib/bench.js; each crypto library has its own bundle so its load time can be measured by itself.
import { httpSuite, spawnSuite } from "./native";
import type { parts as NobleParts } from "./noble";
import { env, hexFields, nowMicros, randomBytes, requireLib, runWithStdin, toHex } from "./platform";
import type { KeyPair, Op, OpName, Primitives, Suite } from "./suite";

const LIBS = ["tweetnacl", "noble"];
const MSG_BYTES = 300; // about the signed part of a NATS user JWT or of a Nebula host certificate
const WARMUP = 3;
const MIN_SAMPLES = 20;
const MAX_SAMPLES = 200;
const ROW_BUDGET_US = 2_000_000; // stop sampling a row once it passed MIN_SAMPLES and this much time

const inProcess =
  (p: Primitives): Suite =>
  (ops) =>
    ops.map((op) => {
      switch (op.op) {
        case "edKeyPair":
          return p.edKeyPair(op.seed);
        case "edSign":
          return { signature: p.edSign(op.msg, op.secretKey) };
        case "x25519KeyPair":
          return p.x25519KeyPair(op.seed);
      }
    });

const loadLib = (lib: string): Primitives => requireLib<{ primitives: Primitives }>(lib).primitives;

const newOp = (name: OpName, signer: KeyPair): Op =>
  name === "edSign"
    ? { op: name, msg: randomBytes(MSG_BYTES), secretKey: signer.secretKey }
    : { op: name, seed: randomBytes(32) };

/** A Thing creation: bus user nkey, its JWT signature, overlay host key pair, host certificate signature. */
const thingOps = (signer: KeyPair): Op[] =>
  (["edKeyPair", "edSign", "x25519KeyPair", "edSign"] as const).map((n) => newOp(n, signer));

const elapsedMs = (fn: () => void): number => {
  const t0 = nowMicros();
  fn();
  return (nowMicros() - t0) / 1000;
};

interface Row {
  path: string;
  op: string;
  n: number;
  p50: number;
  p95: number;
}

/** Times `run(input())` repeatedly; inputs are made outside the timed region. */
function sample<T>(path: string, op: string, input: () => T, run: (x: T) => void): Row {
  for (let i = 0; i < WARMUP; i++) run(input());
  const ms: number[] = [];
  const start = nowMicros();
  while (ms.length < MIN_SAMPLES || (ms.length < MAX_SAMPLES && nowMicros() - start < ROW_BUDGET_US)) {
    const x = input();
    ms.push(elapsedMs(() => run(x)));
  }
  ms.sort((a, b) => a - b);
  const pct = (p: number) => ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)];
  return { path, op, n: ms.length, p50: pct(0.5), p95: pct(0.95) };
}

/** A Thing's ops with inputs and outputs in hex, for run.mjs to verify with node:crypto. */
function check(path: string, suite: Suite) {
  const signerSeed = randomBytes(32);
  const [signer] = suite([{ op: "edKeyPair", seed: signerSeed }]);
  const ops = thingOps(signer as KeyPair);
  return { path, signerSeed: toHex(signerSeed), ops: ops.map(hexFields), results: suite(ops).map(hexFields) };
}

/** Per-op and per-Thing timings plus correctness samples for every path; an empty goSigner skips (e). */
export function measureOps(signerUrl: string, nodePath: string, nodeSigner: string, goSigner: string) {
  const suites: [string, Suite][] = [
    ...LIBS.map((lib): [string, Suite] => [lib, inProcess(loadLib(lib))]),
    ["node spawn", spawnSuite([nodePath, nodeSigner])],
    ...(goSigner ? [["go spawn", spawnSuite([goSigner])] as [string, Suite]] : []),
    ["node http", httpSuite(signerUrl, env("CRYPTOBENCH_SIGNER_TOKEN"))],
  ];
  const nobleParts = requireLib<{ parts: typeof NobleParts }>("noble").parts;
  const rows: Row[] = [
    sample("goja", "random 32 B", () => 32, randomBytes),
    // What a spawn costs without Node's startup: the floor for any one-shot native helper.
    sample("goja", "spawn floor", () => "x".repeat(400), (x) => runWithStdin(["timeout", "-k", "1", "5", "cat"], x)),
    sample("noble", "sha512 300 B", () => randomBytes(MSG_BYTES), nobleParts.sha512),
    sample("noble", "base multiply", () => randomBytes(32), nobleParts.baseMultiply),
  ];
  const checks = [];
  for (const [path, suite] of suites) {
    const [signer] = suite([{ op: "edKeyPair", seed: randomBytes(32) }]) as KeyPair[];
    for (const name of ["edKeyPair", "edSign", "x25519KeyPair"] as const) {
      rows.push(sample(path, name, () => [newOp(name, signer)], suite));
    }
    rows.push(sample(path, "thing", () => thingOps(signer), suite));
    checks.push(check(path, suite), check(path, suite));
  }
  return { rows, checks };
}

/**
 * First use of a library in a VM: its require (compile, on the process's first require, plus module init) and
 * the first Thing, which also derives the signing key and pays any lazy table building (noble precomputes
 * base-point multiples on first use).
 */
export function measureLoad(lib: string) {
  const t0 = nowMicros();
  const suite = inProcess(loadLib(lib));
  const requireMs = (nowMicros() - t0) / 1000;
  const seed = randomBytes(32);
  const firstThingMs = elapsedMs(() => suite(thingOps(suite([{ op: "edKeyPair", seed }])[0] as KeyPair)));
  return { requireMs, firstThingMs };
}
