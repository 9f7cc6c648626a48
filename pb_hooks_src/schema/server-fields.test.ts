import { describe, expect, it } from "vitest";
import { serverFieldsChanged } from "./server-fields";
import type { CollectionNames } from "./names";

const n = { bus_users: "bus_users", overlay_hosts: "hosts", things: "things", locations: "locations" } as unknown as CollectionNames;
const stored: Record<string, string> = { public_key: "UABC", jwt: "eyJ", creds_file: "-----", email: "t-1@acme.thing.local", fingerprint: "ab12" };
const current = (field: string) => stored[field] ?? "";

describe("serverFieldsChanged", () => {
  it("names each server field the body changes, under the configured collection name", () => {
    expect(serverFieldsChanged(n, "bus_users", { public_key: "UOTHER", name: "x" }, current)).toEqual(["public_key"]);
    expect(serverFieldsChanged(n, "bus_users", { jwt: "garbage", creds_file: "garbage" }, current)).toEqual(["jwt", "creds_file"]);
    expect(serverFieldsChanged(n, "hosts", { fingerprint: "0000", name: "h" }, current)).toEqual(["fingerprint"]);
    expect(serverFieldsChanged(n, "things", { email: "squat@other.thing.local" }, current)).toEqual(["email"]);
  });

  it("lets a record echoed back through, and blanking counts as a change", () => {
    expect(serverFieldsChanged(n, "bus_users", { ...stored, name: "renamed" }, current)).toEqual([]);
    expect(serverFieldsChanged(n, "things", { email: null }, current)).toEqual(["email"]);
  });

  it("lets a blank certificate through: that asks for the host's renewal", () => {
    expect(serverFieldsChanged(n, "hosts", { cert: "" }, current)).toEqual([]);
    expect(serverFieldsChanged(n, "hosts", { cert: "garbage" }, current)).toEqual(["cert"]);
    expect(serverFieldsChanged(n, "hosts", { fingerprint: "" }, current)).toEqual(["fingerprint"]);
  });

  it("leaves other collections and fields alone", () => {
    expect(serverFieldsChanged(n, "locations", { email: "x", public_key: "y" }, current)).toEqual([]);
    expect(serverFieldsChanged(n, "bus_users", { active: false, regenerate: true }, current)).toEqual([]);
  });
});
