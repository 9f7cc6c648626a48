// The overlay CA per organization (spec 2.1 overlay_ca, 8.3 overlay.*; docs/overlay.md): provisioned with
// the organization, judged by the pinned bin/nebula-cert.
import { readFileSync } from "node:fs";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "../harness/platform";
import { NEBULA_CERT, useNebulaWorkspace } from "../harness/nebula";
import { createOrganization, useWorld } from "../harness/world";

const YEAR_MS = 365.25 * 86400_000;
const DAY_MS = 86400_000;

const { run: runBinary, file, path } = useNebulaWorkspace("overlay-ca-");
const run = (args: string[]) => runBinary(NEBULA_CERT, args);

interface Printed {
  fingerprint: string;
  details: { name: string; isCa: boolean; notBefore: string; notAfter: string; issuer: string; networks: string[]; groups: string[] };
}

function print(path: string): Printed {
  const r = run(["print", "-json", "-path", path]);
  expect(r.code, r.out).toBe(0);
  const parsed = JSON.parse(r.out) as Printed | Printed[];
  return Array.isArray(parsed) ? parsed[0] : parsed;
}

async function casOf(su: PocketBase, organization: string): Promise<RecordModel[]> {
  return su.collection("overlay_ca").getFullList({ filter: `organization = "${organization}"` });
}

describe("overlay CA with the default configuration", () => {
  const { world: w } = useWorld();

  it("is created with the organization, exactly one, readable by nebula-cert", async () => {
    const before = Date.now();
    const org = await createOrganization(w.su, "Gamma");
    const cas = await casOf(w.su, org.id);
    expect(cas).toHaveLength(1);
    const ca = cas[0];
    expect(ca.name).toBe(`${org.code} overlay CA`);
    expect(ca.private_key).toMatch(/^-----BEGIN NEBULA ED25519 PRIVATE KEY-----\n/);

    const printed = print(file("gamma.crt", ca.cert));
    expect(printed.details.isCa).toBe(true);
    expect(printed.details.name).toBe(`${org.code} overlay CA`);
    expect(printed.details.issuer).toBe("");
    expect(printed.fingerprint).toBe(ca.fingerprint);
    const notBefore = Date.parse(printed.details.notBefore);
    const notAfter = Date.parse(printed.details.notAfter);
    expect(Math.abs(notBefore - before)).toBeLessThan(60_000);
    expect(Math.abs(notAfter - (before + 10 * YEAR_MS))).toBeLessThan(2 * DAY_MS);
    expect(Date.parse(ca.not_after)).toBe(notAfter);

    // Saving the organization again keeps the one CA.
    await w.su.collection("organizations").update(org.id, { name: "Gamma 2" });
    expect((await casOf(w.su, org.id)).map((r) => r.id)).toEqual([ca.id]);
  });

  it("signs a host certificate with nebula-cert that verifies against it", async () => {
    const ca = w.a.overlay_ca;
    const caCrt = file("a-ca.crt", ca.cert);
    const caKey = file("a-ca.key", ca.private_key);
    const hostCrt = path("host.crt");
    const signed = run(["sign", "-ca-crt", caCrt, "-ca-key", caKey, "-name", "host-1", "-networks", "10.42.0.9/16", "-out-crt", hostCrt, "-out-key", path("host.key")]);
    expect(signed.code, signed.out).toBe(0);
    const verified = run(["verify", "-ca", caCrt, "-crt", hostCrt]);
    expect(verified.code, verified.out).toBe(0);
    expect(print(hostCrt).details.issuer).toBe(ca.fingerprint);
    expect(readFileSync(hostCrt, "utf8")).toMatch(/^-----BEGIN NEBULA CERTIFICATE-----/);
  });

  it("is created again by a later save when it is missing", async () => {
    const org = await createOrganization(w.su, "Delta");
    const [first] = await casOf(w.su, org.id);
    await w.su.collection("overlay_ca").delete(first.id);
    await w.su.collection("organizations").update(org.id, { name: "Delta 2" });
    const again = await casOf(w.su, org.id);
    expect(again).toHaveLength(1);
    expect(again[0].id).not.toBe(first.id);
    expect(print(file("delta.crt", again[0].cert)).fingerprint).toBe(again[0].fingerprint);
  });

  it.each(["owner", "admin", "member", "viewer", "dashboard", "operator"] as const)("hides the private key from %s", async (actor) => {
    const pb = await w.client(actor);
    const ca = await pb.collection("overlay_ca").getOne(w.a.overlay_ca.id);
    expect(ca.cert).toBe(w.a.overlay_ca.cert);
    expect(ca.private_key).toBeUndefined();
    expect(JSON.stringify(ca)).not.toContain("PRIVATE KEY");
  });
});

describe("overlay CA with overlay.encryption_key and a 2-year validity", () => {
  const key = "o".repeat(32);
  let platform: Platform;
  let su: PocketBase;
  beforeAll(async () => {
    platform = await startPlatform({ env: { PLATFORM_OVERLAY_ENCRYPTION_KEY: key, PLATFORM_OVERLAY_DEFAULT_CA_VALIDITY_YEARS: "2" } });
    su = await platform.superuser();
  }, 120_000);
  afterAll(async () => platform?.stop());

  it("stores the private key sealed and the certificate valid for 2 years", async () => {
    const before = Date.now();
    const org = await createOrganization(su, "Sealed");
    const [ca] = await casOf(su, org.id);
    expect(ca.private_key.startsWith("sealed:v1:")).toBe(true);
    expect(ca.private_key).not.toContain("PRIVATE KEY");
    expect(platform.log()).not.toContain(key);
    const printed = print(file("sealed.crt", ca.cert));
    expect(printed.fingerprint).toBe(ca.fingerprint);
    expect(Math.abs(Date.parse(printed.details.notAfter) - (before + 2 * YEAR_MS))).toBeLessThan(2 * DAY_MS);
  });
});
