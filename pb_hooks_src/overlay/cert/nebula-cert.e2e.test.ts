// Certificates made by this module, signed with node:crypto (as the sidecar signs), judged by the pinned
// bin/nebula-cert and bin/nebula v1.11.1; and nebula-cert's own output read back by this module.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateBytes, decodeCertificate, encodeDetails, fingerprint, type CertificateDetails } from "./certificate";
import { bytesToHex } from "./hex";
import {
  BANNERS,
  certificateBytesFromPem,
  certificateFromPem,
  certificateToPem,
  certificatesFromPem,
  ed25519PrivateKeyPem,
  keyFromPem,
  pemEncode,
  x25519PrivateKeyPem,
} from "./pem";

const BIN = resolve(__dirname, "../../../bin");
const NEBULA_CERT = join(BIN, "nebula-cert");
const NEBULA = join(BIN, "nebula");
const YEAR = 365 * 86400;
const now = Math.floor(Date.now() / 1000);
const sha256hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

let dir = "";
beforeAll(() => {
  for (const bin of [NEBULA_CERT, NEBULA]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`make binaries\` (pinned nebula v1.11.1)`);
  }
  dir = mkdtempSync(join(tmpdir(), "overlay-cert-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(bin: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(bin, args, { encoding: "utf8", timeout: 10_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface Printed {
  version: number;
  fingerprint: string;
  signature: string;
  details: { name: string; networks: string[]; unsafeNetworks: string[]; groups: string[]; notBefore: string; notAfter: string; publicKey: string; isCa: boolean; issuer: string; curve: string };
}

/** `nebula-cert print -json`: one JSON array of the file's certificates. */
function print(path: string): Printed {
  const r = run(NEBULA_CERT, ["print", "-json", "-path", path]);
  expect(r.code, r.out).toBe(0);
  const printed = JSON.parse(r.out) as Printed[];
  expect(printed).toHaveLength(1);
  return printed[0];
}

const unix = (rfc3339: string) => Date.parse(rfc3339) / 1000;

/** An ed25519 key as the sidecar holds it: 32-byte seed and public key. */
interface SigningKey {
  seed: Uint8Array;
  publicKey: Uint8Array;
  key: KeyObject;
}

const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");
const PKCS8_X25519 = Buffer.from("302e020100300506032b656e04220420", "hex");

function ed25519FromSeed(seed: Uint8Array): SigningKey {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: "der", type: "pkcs8" });
  const x = createPublicKey(key).export({ format: "jwk" }).x ?? "";
  return { seed, publicKey: new Uint8Array(Buffer.from(x, "base64url")), key };
}

function newEd25519(): SigningKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  return ed25519FromSeed(new Uint8Array(Buffer.from(privateKey.export({ format: "jwk" }).d ?? "", "base64url")));
}

function x25519Public(privateKey: Uint8Array): Uint8Array {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_X25519, privateKey]), format: "der", type: "pkcs8" });
  return new Uint8Array(Buffer.from(createPublicKey(key).export({ format: "jwk" }).x ?? "", "base64url"));
}

function newX25519(): { privateKey: Uint8Array; publicKey: Uint8Array } {
  const { privateKey } = generateKeyPairSync("x25519");
  const d = new Uint8Array(Buffer.from(privateKey.export({ format: "jwk" }).d ?? "", "base64url"));
  return { privateKey: d, publicKey: x25519Public(d) };
}

/** What the sidecar's /v1/ed25519/sign does: ed25519 over the encoded details. */
function signed(details: CertificateDetails, signer: SigningKey): Uint8Array {
  return certificateBytes(details, new Uint8Array(sign(null, encodeDetails(details), signer.key)));
}

/** A CA and a host, both built here, written as nebula-cert would expect them. */
function issue(caName: string) {
  const caKey = newEd25519();
  const ca: CertificateDetails = {
    name: caName,
    networks: ["10.42.0.0/16"],
    groups: ["devices", "servers"],
    notBefore: now - 60,
    notAfter: now + 10 * YEAR,
    publicKey: caKey.publicKey,
    isCA: true,
    issuer: "",
  };
  const caBytes = signed(ca, caKey);
  const caFingerprint = fingerprint(caBytes, sha256hex);
  const hostKey = newX25519();
  const host: CertificateDetails = {
    name: "thing-0001",
    networks: ["10.42.0.5/16"],
    groups: ["devices"],
    notBefore: now - 30,
    notAfter: now + YEAR,
    publicKey: hostKey.publicKey,
    isCA: false,
    issuer: caFingerprint,
  };
  const hostBytes = signed(host, caKey);
  return { caKey, ca, caBytes, caFingerprint, hostKey, host, hostBytes };
}

describe("certificates built here, checked by the pinned nebula-cert", () => {
  const built = () => {
    const b = issue("acme overlay ca");
    return {
      ...b,
      caPath: file("ca.crt", pemEncode(BANNERS.certificate, b.caBytes)),
      caKeyPath: file("ca.key", ed25519PrivateKeyPem(b.caKey.seed, b.caKey.publicKey)),
      hostPath: file("host.crt", pemEncode(BANNERS.certificate, b.hostBytes)),
    };
  };

  it("verify accepts the host under the CA", () => {
    const b = built();
    const r = run(NEBULA_CERT, ["verify", "-ca", b.caPath, "-crt", b.hostPath]);
    expect(r.code, r.out).toBe(0);
  });

  it("print shows the host's fields, its network with the overlay mask, and our fingerprint", () => {
    const b = built();
    const p = print(b.hostPath);
    expect(p.version).toBe(1);
    expect(p.details.name).toBe("thing-0001");
    expect(p.details.networks).toEqual(["10.42.0.5/16"]);
    expect(p.details.unsafeNetworks).toEqual([]);
    expect(p.details.groups).toEqual(["devices"]);
    expect(unix(p.details.notBefore)).toBe(b.host.notBefore);
    expect(unix(p.details.notAfter)).toBe(b.host.notAfter);
    expect(p.details.isCa).toBe(false);
    expect(p.details.curve).toBe("CURVE25519");
    expect(p.details.publicKey).toBe(bytesToHex(b.hostKey.publicKey));
    expect(p.details.issuer).toBe(b.caFingerprint);
    expect(p.fingerprint).toBe(fingerprint(b.hostBytes, sha256hex));
  });

  it("print shows the CA's fields and our CA fingerprint, which the host names as issuer", () => {
    const b = built();
    const p = print(b.caPath);
    expect(p.version).toBe(1);
    expect(p.details).toMatchObject({ name: "acme overlay ca", networks: ["10.42.0.0/16"], groups: ["devices", "servers"], isCa: true, issuer: "" });
    expect(unix(p.details.notAfter)).toBe(b.ca.notAfter);
    expect(p.fingerprint).toBe(b.caFingerprint);
  });

  it.each<[string, (c: Uint8Array, b: ReturnType<typeof issue>) => number, RegExp]>([
    ["a byte of the name", (c) => indexOf(c, Buffer.from("thing-0001")), /signature/i],
    ["a byte of the public key", (c, b) => indexOf(c, b.hostKey.publicKey), /signature/i],
    ["a byte of the signature", (c) => c.length - 1, /signature/i],
    ["a byte of the issuer", (c, b) => indexOf(c, Buffer.from(b.caFingerprint, "hex")), /could not find ca/],
  ])("verify fails when %s is changed", (_, where, message) => {
    const b = built();
    const tampered = b.hostBytes.slice();
    tampered[where(tampered, b)] ^= 1;
    const path = file("tampered.crt", pemEncode(BANNERS.certificate, tampered));
    const r = run(NEBULA_CERT, ["verify", "-ca", b.caPath, "-crt", path]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(message);
  });

  it("verify fails when the mask is widened or narrowed after signing (the mask is signed)", () => {
    const b = built();
    const { signature } = decodeCertificate(b.hostBytes);
    const narrowed = certificateBytes({ ...b.host, networks: ["10.42.0.5/32"] }, signature);
    const path = file("narrowed.crt", pemEncode(BANNERS.certificate, narrowed));
    expect(run(NEBULA_CERT, ["verify", "-ca", b.caPath, "-crt", path]).code).not.toBe(0);
  });

  it("verify fails for a host signed by another CA that names ours as issuer", () => {
    const b = built();
    const other = newEd25519();
    const path = file("forged.crt", pemEncode(BANNERS.certificate, signed(b.host, other)));
    expect(run(NEBULA_CERT, ["verify", "-ca", b.caPath, "-crt", path]).code).not.toBe(0);
  });

  it("nebula-cert signs a v1 host with our CA certificate and key PEM", () => {
    const b = built();
    const out = join(dir, "by-nebula.crt");
    const r = run(NEBULA_CERT, ["sign", "-ca-crt", b.caPath, "-ca-key", b.caKeyPath, "-name", "n2", "-networks", "10.42.0.9/16", "-groups", "devices", "-out-crt", out, "-out-key", join(dir, "by-nebula.key")]);
    expect(r.code, r.out).toBe(0);
    const cert = certificateFromPem(readFileSync(out, "utf8"));
    expect(cert.details.issuer).toBe(b.caFingerprint);
    expect(cert.details.networks).toEqual(["10.42.0.9/16"]);
  });

  it("bin/nebula -test loads the host config with our CA, certificate and X25519 key inline", () => {
    const b = built();
    const config = (key: Uint8Array) =>
      file(
        "config.yml",
        [
          "pki:",
          `  ca: |\n${indent(pemEncode(BANNERS.certificate, b.caBytes))}`,
          `  cert: |\n${indent(pemEncode(BANNERS.certificate, b.hostBytes))}`,
          `  key: |\n${indent(x25519PrivateKeyPem(key))}`,
          "static_host_map: {}",
          "listen: {host: 127.0.0.1, port: 0}",
          "tun: {disabled: true}",
          "firewall: {outbound: [{port: any, proto: any, host: any}], inbound: [{port: any, proto: any, host: any}]}",
          "",
        ].join("\n"),
      );
    const ok = run(NEBULA, ["-test", "-config", config(b.hostKey.privateKey)]);
    expect(ok.code, ok.out).toBe(0);
    const wrong = run(NEBULA, ["-test", "-config", config(newX25519().privateKey)]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.out).toContain("not a pair");
  });

  it("a CA bundle (two CAs, as during a rotation) reads back in order and verifies hosts of both", () => {
    const one = issue("ca one");
    const two = issue("ca two");
    const bundle = pemEncode(BANNERS.certificate, one.caBytes) + pemEncode(BANNERS.certificate, two.caBytes);
    expect(certificatesFromPem(bundle).map((c) => c.details.name)).toEqual(["ca one", "ca two"]);
    const bundlePath = file("bundle.crt", bundle);
    for (const b of [one, two]) {
      const hostPath = file("bundle-host.crt", pemEncode(BANNERS.certificate, b.hostBytes));
      expect(run(NEBULA_CERT, ["verify", "-ca", bundlePath, "-crt", hostPath]).code).toBe(0);
    }
  });
});

describe("nebula-cert's own v1 output, read by this module", () => {
  it("a CA: the same fields as print, the same fingerprint, byte-identical re-encoding and signature", () => {
    const crt = join(dir, "nc-ca.crt");
    const key = join(dir, "nc-ca.key");
    const r = run(NEBULA_CERT, ["ca", "-version", "1", "-name", "x", "-groups", "g1,g2", "-networks", "10.50.0.0/16", "-unsafe-networks", "192.168.0.0/16", "-duration", "1000h", "-out-crt", crt, "-out-key", key]);
    expect(r.code, r.out).toBe(0);
    const pem = readFileSync(crt, "utf8");
    const bytes = certificateBytesFromPem(pem);
    const cert = decodeCertificate(bytes);
    const p = print(crt);
    expect(cert.details).toEqual({
      name: "x",
      networks: ["10.50.0.0/16"],
      unsafeNetworks: ["192.168.0.0/16"],
      groups: ["g1", "g2"],
      notBefore: unix(p.details.notBefore),
      notAfter: unix(p.details.notAfter),
      publicKey: new Uint8Array(Buffer.from(p.details.publicKey, "hex")),
      isCA: true,
      issuer: "",
      curve: "CURVE25519",
    });
    expect(bytesToHex(cert.signature)).toBe(p.signature);
    expect(fingerprint(bytes, sha256hex)).toBe(p.fingerprint);
    // The private key PEM: 64 bytes, seed then public key; signing our own encoding of the details with it
    // gives nebula-cert's signature (ed25519 is deterministic), so the bytes signed were the same.
    const caKey = keyFromPem(readFileSync(key, "utf8"), BANNERS.ed25519PrivateKey);
    const signer = ed25519FromSeed(caKey.slice(0, 32));
    expect(signer.publicKey).toEqual(caKey.slice(32));
    expect(signer.publicKey).toEqual(cert.details.publicKey);
    expect(certificateToPem(cert.details, new Uint8Array(sign(null, encodeDetails(cert.details), signer.key)))).toBe(pem);
  });

  it("a host: fields, issuer, /32 when asked, and a host key that is the certificate's pair", () => {
    const ca = join(dir, "nc2-ca.crt");
    const caKey = join(dir, "nc2-ca.key");
    expect(run(NEBULA_CERT, ["ca", "-version", "1", "-name", "ca", "-out-crt", ca, "-out-key", caKey]).code).toBe(0);
    const crt = join(dir, "nc2-host.crt");
    const key = join(dir, "nc2-host.key");
    const r = run(NEBULA_CERT, ["sign", "-ca-crt", ca, "-ca-key", caKey, "-name", "legacy", "-networks", "10.42.0.7/32", "-groups", "a,b", "-out-crt", crt, "-out-key", key]);
    expect(r.code, r.out).toBe(0);
    const cert = certificateFromPem(readFileSync(crt, "utf8"));
    expect(cert.details.networks).toEqual(["10.42.0.7/32"]); // what cert-audit looks for (spec 9.6)
    expect(cert.details.groups).toEqual(["a", "b"]);
    expect(cert.details.isCA).toBe(false);
    expect(cert.details.issuer).toBe(print(ca).fingerprint);
    const hostKey = keyFromPem(readFileSync(key, "utf8"), BANNERS.x25519PrivateKey);
    expect(x25519Public(hostKey)).toEqual(cert.details.publicKey);
  });
});

describe("v1 and v2: what nebula-cert v1.11.1 writes by default", () => {
  it("ca without -version writes a v2 certificate, which this module refuses by name", () => {
    const crt = join(dir, "v2-ca.crt");
    const r = run(NEBULA_CERT, ["ca", "-name", "v2", "-out-crt", crt, "-out-key", join(dir, "v2-ca.key")]);
    expect(r.code, r.out).toBe(0);
    const pem = readFileSync(crt, "utf8");
    expect(pem.startsWith(`-----BEGIN ${BANNERS.certificateV2}-----\n`)).toBe(true);
    expect(print(crt).version).toBe(2);
    expect(() => certificateFromPem(pem)).toThrow(/v2 Nebula certificate/);
  });

  it("sign without -version follows the CA: a v1 CA gives v1 hosts", () => {
    const b = issue("v1 ca");
    const caPath = file("v1-ca.crt", pemEncode(BANNERS.certificate, b.caBytes));
    const keyPath = file("v1-ca.key", ed25519PrivateKeyPem(b.caKey.seed, b.caKey.publicKey));
    const out = join(dir, "v1-host.crt");
    expect(run(NEBULA_CERT, ["sign", "-ca-crt", caPath, "-ca-key", keyPath, "-name", "h", "-networks", "10.42.0.3/16", "-out-crt", out, "-out-key", join(dir, "v1-host.key")]).code).toBe(0);
    expect(readFileSync(out, "utf8").startsWith(`-----BEGIN ${BANNERS.certificate}-----\n`)).toBe(true);
  });
});

function indexOf(bytes: Uint8Array, part: Uint8Array): number {
  const at = Buffer.from(bytes).indexOf(part);
  if (at < 0) throw new Error("part not found");
  return at;
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}
