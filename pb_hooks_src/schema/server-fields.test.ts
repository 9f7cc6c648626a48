import { describe, expect, it } from "vitest";
import { serverFieldsChanged } from "./server-fields";
import type { CollectionNames } from "./names";

const n = { bus_users: "bus_users", bus_accounts: "accounts", overlay_hosts: "hosts", overlay_ca: "cas", things: "things", locations: "locations" } as unknown as CollectionNames;
const stored: Record<string, string> = {
  public_key: "UABC", jwt: "eyJ", creds_file: "-----", email: "t-1@acme.thing.local", fingerprint: "ab12", cert: "-----BEGIN",
  signing_keys: '["AKEY1","AKEY2"]', bus_confirmed: "true", limits: '{"max_connections":100}',
  rotation: "prepared", next_cert: "-----BEGIN NEXT", next_fingerprint: "cd34", next_not_after: "2036-01-01 00:00:00.000Z",
};
const before = (field: string) => stored[field] ?? "";

/** The fields `collection` would refuse when the request's body left the row holding `written`. */
const changed = (collection: string, written: Record<string, string>) => serverFieldsChanged(n, collection, before, (field) => written[field] ?? before(field));

describe("serverFieldsChanged", () => {
  it("names each server field a write changes, under the configured collection name", () => {
    expect(changed("bus_users", { public_key: "UOTHER", name: "x" })).toEqual(["public_key"]);
    expect(changed("bus_users", { jwt: "garbage", creds_file: "garbage" })).toEqual(["jwt", "creds_file"]);
    expect(changed("hosts", { fingerprint: "0000", name: "h" })).toEqual(["fingerprint"]);
    expect(changed("things", { email: "squat@other.thing.local" })).toEqual(["email"]);
    expect(changed("accounts", { signing_keys: '["AKEY1"]', bus_confirmed: "false" })).toEqual(["signing_keys", "bus_confirmed"]);
  });

  it("lets a record echoed back through, and blanking counts as a change", () => {
    expect(changed("bus_users", { ...stored, name: "renamed" })).toEqual([]);
    expect(changed("things", { email: "" })).toEqual(["email"]);
  });

  it("lets a blank certificate through: that asks for the host's renewal", () => {
    expect(changed("hosts", { cert: "" })).toEqual([]);
    expect(changed("hosts", { cert: "garbage" })).toEqual(["cert"]);
    expect(changed("hosts", { fingerprint: "" })).toEqual(["fingerprint"]);
  });

  it("lets a prepared CA rotation be withdrawn (rotation blanked, the incoming CA blanked or left), nothing else", () => {
    const incoming = { next_cert: "", next_fingerprint: "", next_not_after: "" };
    expect(changed("cas", { rotation: "", ...incoming })).toEqual([]);
    expect(changed("cas", { rotation: "" })).toEqual([]);
    expect(changed("cas", { rotation: "", next_cert: "-----BEGIN OTHER" })).toEqual(["next_cert"]);
    expect(changed("cas", { rotation: "committed" })).toEqual(["rotation"]);
    expect(changed("cas", incoming)).toEqual(["next_cert", "next_fingerprint", "next_not_after"]);
    expect(changed("cas", { rotation: "", cert: "", fingerprint: "" })).toEqual(["cert", "fingerprint"]);
    const committed = (field: string) => (field === "rotation" ? "committed" : before(field));
    expect(serverFieldsChanged(n, "cas", committed, (field) => (field === "rotation" ? "" : committed(field)))).toEqual(["rotation"]);
  });

  it("leaves other collections and fields alone", () => {
    expect(changed("locations", { email: "x", public_key: "y" })).toEqual([]);
    expect(changed("bus_users", { active: "false", regenerate: "true" })).toEqual([]);
    expect(changed("accounts", { limits: '{"max_connections":5}', name: "renamed", active: "false" })).toEqual([]);
  });
});
