// Measures ed25519/X25519 costs inside goja in the real PocketBase binary, for the ways hooks could do crypto:
// (a) tweetnacl and (b) @noble/curves in-process, (c) a Node process spawned per call, (d) a long-running
// Node signer on loopback HTTP, (e) a compiled Go program spawned per call (skipped without a Go toolchain).
// Verifies every path's output with node:crypto and prints a table.
// Usage, from the repo root: node bench/crypto/run.mjs   (method and figures: docs/crypto.md)
import { spawn, spawnSync } from "node:child_process";
import { createPublicKey, randomBytes, sign, verify } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { privateKey, rawPublicKey } from "./native/ops.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const pocketbase = join(root, "bin/pocketbase");
const LIBS = ["tweetnacl", "noble"];
const LOAD_RUNS = 5; // fresh processes per library for the first-use figures
const OPS = ["edKeyPair", "edSign", "x25519KeyPair", "thing"];

/** Bundles each library and the driver the way the platform's hooks are bundled (scripts/build-hooks.mjs). */
async function buildHooks(hooksDir) {
  mkdirSync(join(hooksDir, "lib"), { recursive: true });
  for (const name of [...LIBS, "bench"]) {
    await build({
      entryPoints: [join(here, `hook/${name}.ts`)],
      outfile: join(hooksDir, `lib/${name}.js`),
      bundle: true,
      format: "cjs",
      platform: "browser", // tweetnacl's browser field then stubs Node's crypto module, which goja lacks
      mainFields: ["browser", "main"],
      target: "es2020",
      logLevel: "warning",
    });
  }
  copyFileSync(join(here, "hook/main.pb.js"), join(hooksDir, "main.pb.js"));
}

/** Builds (e) from the Go standard library alone; returns "" when no Go toolchain is installed. */
function buildGoSigner(tmp) {
  const out = join(tmp, "go-signer");
  const res = spawnSync("go", ["build", "-trimpath", "-o", out, join(here, "native/go-signer/main.go")], {
    cwd: tmp,
    env: { ...process.env, GOTOOLCHAIN: "local", CGO_ENABLED: "0" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (res.error?.code === "ENOENT") return "";
  if (res.status !== 0) throw new Error("go build of native/go-signer failed");
  return out;
}

/** Starts the loopback signer; resolves with its URL once it printed its port. */
async function startSigner(token) {
  const child = spawn(process.execPath, [join(here, "native/signer-server.mjs")], {
    env: { ...process.env, SIGNER_TOKEN: token },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const { value: line } = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  if (!line) throw new Error("signer-server exited before listening");
  return { child, url: `http://127.0.0.1:${JSON.parse(line).port}/ops` };
}

const MARKER = "CRYPTOBENCH_RESULT ";

/** Runs `bin/pocketbase cryptobench <args>` on the temp dirs and parses the result line it prints. */
function cryptobench(tmp, args, env = {}) {
  const dirs = ["--dir", join(tmp, "data"), "--hooksDir", join(tmp, "hooks"), "--migrationsDir", join(tmp, "mig")];
  const res = spawnSync(pocketbase, ["cryptobench", ...args, ...dirs, "--hooksWatch=false"], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 150_000,
  });
  const line = res.stdout.split("\n").find((l) => l.includes(MARKER));
  if (!line) throw new Error(`cryptobench ${args[0]} printed no result:\n${res.stdout}${res.stderr}${res.error ?? ""}`);
  return JSON.parse(line.slice(line.indexOf(MARKER) + MARKER.length));
}

/** Checks one Thing's outputs from a path against node:crypto; returns the failures. */
function verifyCheck({ path, signerSeed, ops, results }) {
  const hex = (s) => Buffer.from(s, "hex");
  const signerKey = privateKey("ed25519", hex(signerSeed));
  const failures = [];
  ops.forEach((op, i) => {
    const got = results[i];
    if (op.op === "edSign") {
      const msg = hex(op.msg);
      const signature = hex(got.signature ?? "");
      // ed25519 is deterministic: a valid signature must also be byte-equal to node:crypto's.
      const valid = signature.length === 64 && verify(null, msg, createPublicKey(signerKey), signature);
      if (!valid || !signature.equals(sign(null, msg, signerKey))) failures.push(`${path}: bad ed25519 signature`);
    } else {
      const curve = op.op === "edKeyPair" ? "ed25519" : "x25519";
      const expected = rawPublicKey(privateKey(curve, hex(op.seed))).toString("hex");
      if (got.publicKey !== expected) failures.push(`${path}: wrong ${curve} public key`);
    }
  });
  return failures;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/** A Markdown table, so the output pastes into docs/crypto.md as is. */
function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => "| " + cells.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  return [line(header), "|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|", ...rows.map(line)].join("\n");
}

function pocketbaseVersion() {
  const pins = join(root, "scripts/binaries.env"); // the source-built binary's --version says "(untracked)"
  return (existsSync(pins) && readFileSync(pins, "utf8").match(/^POCKETBASE_VERSION=(\S+)/m)?.[1]) || "?";
}

function report({ rows, paths, loads, goSigner }) {
  const cell = (path, op) => {
    const r = rows.find((x) => x.path === path && x.op === op);
    return `${fmt(r.p50)} / ${fmt(r.p95)} (${r.n})`;
  };
  const date = new Date().toISOString().slice(0, 10);
  console.log(`crypto inside goja: PocketBase ${pocketbaseVersion()} (bin/pocketbase), Node ${process.version}, ` +
    `${cpus().length} cores, ${date}`);
  console.log("\nms per call, p50 / p95 (samples). Thing = ed25519 key pair + 2 ed25519 signs + X25519 key pair," +
    "\nin one call for the native paths.\n");
  const header = ["path", "ed25519 key pair", "ed25519 sign 300 B", "X25519 key pair", "Thing"];
  console.log(table(header, paths.map((p) => [p, ...OPS.map((op) => cell(p, op))])));
  if (!goSigner) console.log("\ngo spawn skipped: no Go toolchain on PATH");
  console.log(`\nother costs in goja, ms, p50 / p95 (samples):
  32 random bytes from $security.randomStringWithAlphabet: ${cell("goja", "random 32 B")}
  spawn floor, \`timeout cat\` echoing a 400-byte request (no Node startup): ${cell("goja", "spawn floor")}
  noble SHA-512 of 300 bytes: ${cell("noble", "sha512 300 B")}
  noble ed25519 base-point multiply: ${cell("noble", "base multiply")}`);
  console.log(`\nfirst use of a library in a VM, ms, median of ${LOAD_RUNS} fresh processes ` +
    "(the first Thing also derives its signing key).\n" +
    "The first VM compiles the bundle; other VMs reuse the compiled code the process cached.\n");
  const loadHeader = ["library", "require, first VM", "first Thing, first VM", "require, other VM", "first Thing, other VM"];
  console.log(table(loadHeader, loads));
}

/** Medians over fresh processes of one library's first-use figures, as a table row. */
function firstUse(tmp, lib) {
  const runs = Array.from({ length: LOAD_RUNS }, () => cryptobench(tmp, ["load", lib]));
  const m = (vm, key) => fmt(median(runs.map((r) => r[vm][key])));
  return [lib, m("loader", "requireMs"), m("loader", "firstThingMs"), m("executor", "requireMs"), m("executor", "firstThingMs")];
}

const tmp = mkdtempSync(join(tmpdir(), "cryptobench-"));
const token = randomBytes(32).toString("hex");
let signer;
try {
  await buildHooks(join(tmp, "hooks"));
  const goSigner = buildGoSigner(tmp);
  signer = await startSigner(token);

  const loads = LIBS.map((lib) => firstUse(tmp, lib));
  const nodeSigner = join(here, "native/native-signer.mjs");
  const { rows, checks } = cryptobench(tmp, ["ops", signer.url, process.execPath, nodeSigner, goSigner], {
    CRYPTOBENCH_SIGNER_TOKEN: token,
  });
  const paths = [...new Set(checks.map((c) => c.path))];
  report({ rows, paths, loads, goSigner });

  const failures = checks.flatMap(verifyCheck);
  if (failures.length) {
    console.error(`\nVERIFICATION FAILED:\n${failures.join("\n")}`);
    process.exitCode = 1;
  } else {
    const outputs = checks.reduce((n, c) => n + c.ops.length, 0);
    console.log(`\nverified with node:crypto: ${outputs} outputs from ${checks.length} Things across ${paths.length} paths`);
  }
} finally {
  signer?.child.stdin.end(); // the signer exits on stdin EOF
  rmSync(tmp, { recursive: true, force: true });
}
