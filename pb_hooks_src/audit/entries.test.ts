import { describe, expect, it } from "vitest";
import type { FieldInfo } from "./changes";
import { authEntry, consoleLine, recordEntry, schemaEntry } from "./entries";

const FIELDS: FieldInfo[] = [
  { name: "id", type: "text", hidden: false },
  { name: "name", type: "text", hidden: false },
  { name: "seed", type: "text", hidden: true },
  { name: "active", type: "bool", hidden: false },
  { name: "updated", type: "autodate", hidden: false },
];

const write = { collection: "things", recordId: "r1", actor: "users:u1", fields: FIELDS };

describe("recordEntry", () => {
  it("keeps the set values of a create on the allowlist, never a hidden one", () => {
    const entry = recordEntry({ ...write, action: "create", after: { id: "r1", name: "A", seed: "SECRET", active: false }, withValues: true });
    expect(entry).toEqual({
      collection: "things",
      record_id: "r1",
      action: "create",
      actor: "users:u1",
      changed_fields: ["name", "seed"],
      before: null,
      after: { name: "A" },
    });
  });

  it("keeps before and after of the changed fields only on update", () => {
    const entry = recordEntry({ ...write, action: "update", before: { name: "A", active: true, seed: "s1" }, after: { name: "B", active: true, seed: "s2" }, withValues: true });
    expect(entry.changed_fields).toEqual(["name", "seed"]);
    expect(entry.before).toEqual({ name: "A" });
    expect(entry.after).toEqual({ name: "B" });
  });

  it("keeps every non-secret value on delete", () => {
    const entry = recordEntry({ ...write, action: "delete", before: { name: "A", active: true, seed: "s" }, withValues: true });
    expect(entry.changed_fields).toEqual(["name", "seed", "active"]);
    expect(entry.before).toEqual({ name: "A", active: true });
    expect(entry.after).toBeNull();
  });

  it("keeps field names only off the allowlist", () => {
    const entry = recordEntry({ ...write, action: "update", before: { name: "A" }, after: { name: "B" }, withValues: false });
    expect(entry.changed_fields).toEqual(["name"]);
    expect(entry.before).toBeNull();
    expect(entry.after).toBeNull();
  });
});

describe("authEntry", () => {
  it("names no fields and no values", () => {
    expect(authEntry("users", "u1", "users:u1")).toEqual({ collection: "users", record_id: "u1", action: "auth", actor: "users:u1", changed_fields: [], before: null, after: null });
  });
});

describe("schemaEntry", () => {
  const template = (subject: string) => ({ subject, body: "<p>{TOKEN}</p>" });
  const users = {
    id: "c1",
    name: "users",
    listRule: "",
    updated: "t1",
    verificationTemplate: template("Verify"),
    authAlert: { enabled: true, emailTemplate: template("Alert") },
    authToken: { duration: 100 },
  };

  it("keeps the changed email templates as values and names the other options", () => {
    const after = { ...users, updated: "t2", listRule: "id != ''", verificationTemplate: template("Please verify"), authAlert: { enabled: false, emailTemplate: template("Alert") } };
    const entry = schemaEntry({ collectionId: "c1", action: "update", actor: "_superusers:s1", before: users, after });
    expect(entry.collection).toBe("_collections");
    expect(entry.record_id).toBe("c1");
    expect(entry.changed_fields).toEqual(["listRule", "verificationTemplate", "authAlert"]);
    expect(entry.before).toEqual({ verificationTemplate: template("Verify") });
    expect(entry.after).toEqual({ verificationTemplate: template("Please verify") });
  });

  it("reaches templates nested in options", () => {
    const after = { ...users, authAlert: { enabled: true, emailTemplate: template("New login") } };
    const entry = schemaEntry({ collectionId: "c1", action: "update", actor: "system", before: users, after });
    expect(entry.changed_fields).toEqual(["authAlert"]);
    expect(entry.after).toEqual({ "authAlert.emailTemplate": template("New login") });
  });

  it("keeps no values when no template changed, and none for base collections", () => {
    const entry = schemaEntry({ collectionId: "c2", action: "create", actor: "system", after: { id: "c2", name: "things", listRule: null, fields: [{ name: "x" }] } });
    expect(entry.changed_fields).toEqual(["name", "fields"]);
    expect(entry.before).toBeNull();
    expect(entry.after).toBeNull();
  });
});

describe("consoleLine", () => {
  it("is one JSON line without values", () => {
    const entry = recordEntry({ ...write, action: "update", before: { name: "secret-ish" }, after: { name: "B" }, withValues: true });
    const line = consoleLine(entry, "2026-01-01 00:00:00.000Z");
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      type: "audit",
      time: "2026-01-01 00:00:00.000Z",
      collection: "things",
      record_id: "r1",
      action: "update",
      actor: "users:u1",
      changed_fields: ["name"],
    });
    expect(line).not.toContain("secret-ish");
  });
});
