import { describe, expect, it } from "vitest";
import { publicationLine, verboseLine, type Read } from "./verbose-lines";

const SECRETS = {
  seed: "SUAFAKESEEDFAKESEEDFAKESEED",
  private_key: "-----BEGIN NEBULA X25519 PRIVATE KEY-----",
  next_private_key: "-----BEGIN NEBULA ED25519 PRIVATE KEY-----",
  creds_file: "-----BEGIN NATS USER JWT-----",
  config_yaml: "pki:\n  key: secret",
  signing_seeds: '["SAAFAKESIGNINGSEED"]',
};
// A JWT whose payload is {"iat":1764000000}.
const JWT = `e30.${Buffer.from(JSON.stringify({ iat: 1764000000 })).toString("base64url")}.sig`;

const row = (fields: Record<string, string>): Read => (field) => ({ ...SECRETS, ...fields })[field] ?? "";

describe("verboseLine", () => {
  it("describes each kind's committed write by names, keys and fingerprints", () => {
    expect(verboseLine("bus_users", "create", row({ name: "sensor-1", public_key: "UKEY", active: "false", jwt: JWT }))).toBe(
      'bus: user "sensor-1" (key UKEY) created: suspended, credential issued 2025-11-24T16:00:00.000Z',
    );
    expect(verboseLine("bus_accounts", "update", row({ public_key: "AKEY", organization: "org1", active: "true", signing_keys: '["A1","A2"]', revocations: '{"U1":5}' }))).toBe(
      "bus: account AKEY of organization org1 updated: active, 2 signing keys, 1 revoked user keys",
    );
    expect(verboseLine("overlay_ca", "update", row({ fingerprint: "ca1", organization: "org1", not_after: "2036-01-01", rotation: "prepared", next_fingerprint: "ca2", revoked_fingerprints: '["h1"]' }))).toBe(
      "overlay: CA ca1 of organization org1 updated: valid until 2036-01-01, rotation prepared to CA ca2, 1 blocked host certificates",
    );
    expect(verboseLine("overlay_networks", "delete", row({ name: "net", cidr: "10.42.0.0/16", organization: "org1" }))).toBe(
      'overlay: network "net" 10.42.0.0/16 of organization org1 deleted',
    );
    expect(verboseLine("overlay_hosts", "create", row({ name: "gw", overlay_ip: "10.42.0.1", active: "true", fingerprint: "fp", not_after: "2027-01-01" }))).toBe(
      'overlay: host "gw" 10.42.0.1 created: active, certificate fp valid until 2027-01-01',
    );
    expect(verboseLine("overlay_hosts", "update", row({ name: "gw", overlay_ip: "10.42.0.1", active: "false" }))).toBe(
      'overlay: host "gw" 10.42.0.1 updated: inactive, certificate none',
    );
  });

  it("never carries a secret field's text, nor the JWT", () => {
    for (const kind of ["bus_users", "bus_accounts", "overlay_ca", "overlay_networks", "overlay_hosts"] as const) {
      const line = verboseLine(kind, "update", row({ jwt: JWT }));
      for (const secret of [...Object.values(SECRETS), JWT]) expect(line, kind).not.toContain(secret);
    }
  });
});

describe("publicationLine", () => {
  it("says whether the bus confirmed the claim", () => {
    expect(publicationLine("AKEY", true, true, "")).toBe("bus: claim of account AKEY (active) published: confirmed");
    expect(publicationLine("AKEY", false, false, "the bus has not confirmed it: refused")).toBe(
      "bus: claim of account AKEY (suspended) published: not confirmed (the bus has not confirmed it: refused)",
    );
  });
});
