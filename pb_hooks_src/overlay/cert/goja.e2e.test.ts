// The module inside goja: bundled as the hooks are bundled (esbuild, CommonJS, platform browser, ES2020) and
// run by the pinned bin/pocketbase as a command, it must give exactly what it gives in Node. This is what
// proves it needs no Node API, TextEncoder, atob or Buffer. The hash injected there is @noble/hashes' sha256
// (pure JS), one way hooks can hash bytes.
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateBytes, decodeCertificate, encodeDetails, fingerprint, type CertificateDetails } from "./certificate";
import { bytesToHex } from "./hex";
import { certificateToPem, ed25519PrivateKeyPem, pemEncode } from "./pem";
import { writeBytesField, writeInt64, writeTag, writeVarint, type Sink } from "./protobuf";

const POCKETBASE = resolve(__dirname, "../../../bin/pocketbase");
const MARKER = "CERTCHECK_RESULT ";

// Runs in the loader VM of `pocketbase certcheck <input json>`; prints one result line.
const ENTRY = `
$app.rootCmd.addCommand(new Command({
  use: "certcheck",
  run: (cmd, args) => {
    const m = require(__hooks + "/lib/cert.js");
    const input = JSON.parse(args[0]);
    const sha = (b) => m.bytesToHex(m.sha256(b));
    const shown = (c) => Object.assign({}, c.details, { publicKey: m.bytesToHex(c.details.publicKey), signature: m.bytesToHex(c.signature) });
    const details = Object.assign({}, input.details, { publicKey: m.hexToBytes(input.details.publicKey) });
    const pem = m.certificateToPem(details, m.hexToBytes(input.signature));
    const odd = m.hexToBytes(input.oddCertificate);
    const out = {
      encoded: m.bytesToHex(m.encodeDetails(details)),
      pem: pem,
      read: shown(m.certificateFromPem(pem)),
      fingerprint: m.fingerprint(m.certificateBytesFromPem(pem), sha),
      odd: shown(m.decodeCertificate(odd)),
      oddCanonical: m.bytesToHex(m.canonicalBytes(m.decodeCertificate(odd))),
      oddFingerprint: m.fingerprint(odd, sha),
      keyPem: m.ed25519PrivateKeyPem(m.hexToBytes(input.seed), m.hexToBytes(input.details.publicKey)),
      base64: m.bytesToHex(m.base64Decode(m.base64Encode(m.hexToBytes(input.random)))),
    };
    try {
      m.certificateFromPem(input.v2Pem);
    } catch (e) {
      out.v2Error = { formatError: e instanceof m.CertificateFormatError, message: e.message };
    }
    console.log(${JSON.stringify(MARKER)} + JSON.stringify(out));
  },
}));
`;

let dir = "";
beforeAll(async () => {
  if (!existsSync(POCKETBASE)) throw new Error(`${POCKETBASE} is missing: run \`make binaries\``);
  dir = mkdtempSync(join(tmpdir(), "overlay-cert-goja-"));
  for (const sub of ["hooks/lib", "data", "migrations"]) mkdirSync(join(dir, sub), { recursive: true });
  await build({
    stdin: { contents: 'export * from "./index";\nexport { sha256 } from "@noble/hashes/sha2.js";\n', resolveDir: __dirname, loader: "ts" },
    outfile: join(dir, "hooks/lib/cert.js"),
    bundle: true,
    format: "cjs",
    platform: "browser",
    mainFields: ["browser", "main"],
    target: "es2020",
    logLevel: "warning",
  });
  writeFileSync(join(dir, "hooks/main.pb.js"), ENTRY);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** A certificate Nebula reads but nobody would write: unpacked IPs, an unknown field, a negative time. */
function oddCertificate(): Uint8Array {
  const d: Sink = [];
  writeTag(d, 2, 0);
  writeVarint(d, 0x0a2a0005);
  writeTag(d, 2, 0);
  writeVarint(d, 0xffff0000);
  writeBytesField(d, 77, [1, 2, 3]);
  writeTag(d, 5, 0);
  writeInt64(d, -5);
  writeBytesField(d, 7, new Array<number>(32).fill(0xee));
  const out: Sink = [];
  writeBytesField(out, 2, new Array<number>(64).fill(0x55));
  writeBytesField(out, 1, d);
  return new Uint8Array(out);
}

describe("inside goja (bin/pocketbase)", () => {
  it("encodes, decodes, fingerprints and PEM-encodes exactly as in Node", () => {
    const seed = randomBytes(32);
    const details: Required<CertificateDetails> = {
      name: "gerät ü 😀",
      networks: ["10.42.0.5/16"],
      unsafeNetworks: ["192.168.7.0/24"],
      groups: ["devices", "", "grüppe"],
      notBefore: 1790000000,
      notAfter: 2 ** 41,
      publicKey: new Uint8Array(randomBytes(32)),
      isCA: false,
      issuer: bytesToHex(randomBytes(32)),
      curve: "CURVE25519",
    };
    const signature = new Uint8Array(randomBytes(64));
    const random = new Uint8Array(randomBytes(100));
    const odd = oddCertificate();
    const input = {
      details: { ...details, publicKey: bytesToHex(details.publicKey) },
      signature: bytesToHex(signature),
      seed: bytesToHex(seed),
      oddCertificate: bytesToHex(odd),
      random: bytesToHex(random),
      v2Pem: pemEncode("NEBULA CERTIFICATE V2", new Uint8Array([0x30, 0x00])),
    };

    const r = spawnSync(POCKETBASE, ["certcheck", JSON.stringify(input), "--dir", join(dir, "data"), "--hooksDir", join(dir, "hooks"), "--migrationsDir", join(dir, "migrations"), "--hooksWatch=false"], { encoding: "utf8", timeout: 30_000 });
    const output = r.stdout + r.stderr;
    const line = output.split("\n").find((l) => l.includes(MARKER));
    expect(line, output).toBeDefined();
    const got = JSON.parse((line ?? "").slice((line ?? "").indexOf(MARKER) + MARKER.length)) as Record<string, unknown>;

    const show = (c: ReturnType<typeof decodeCertificate>) => ({ ...c.details, publicKey: bytesToHex(c.details.publicKey), signature: bytesToHex(c.signature) });
    const certBytes = certificateBytes(details, signature);
    const oddRead = decodeCertificate(odd);
    expect(got).toEqual({
      encoded: bytesToHex(encodeDetails(details)),
      pem: certificateToPem(details, signature),
      read: show(decodeCertificate(certBytes)),
      fingerprint: sha256hex(certBytes),
      odd: show(oddRead),
      oddCanonical: bytesToHex(certificateBytes(oddRead.details, oddRead.signature)),
      oddFingerprint: fingerprint(odd, sha256hex),
      keyPem: ed25519PrivateKeyPem(seed, details.publicKey),
      base64: bytesToHex(random),
      v2Error: { formatError: true, message: "a v2 Nebula certificate (NEBULA CERTIFICATE V2): only v1 is supported" },
    });
    expect(oddRead.details.notBefore).toBe(-5);
  }, 30_000);
});
