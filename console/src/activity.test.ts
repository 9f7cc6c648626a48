import { describe, expect, it } from "vitest";
import { describeActivity, timeOf } from "./activity";

const entry = { actor: "alice@example.test", action: "create", record: "things", label: "Thermostat", timestamp: "2026-11-24 10:00:00.000Z" };

describe("activity entries in words", () => {
  it("names the actor, the action as a verb, the kind of record and its label", () => {
    expect(describeActivity(entry)).toBe("alice@example.test created Thing “Thermostat”");
    expect(describeActivity({ ...entry, action: "update", record: "thing_type_operations", label: "reboot" })).toBe("alice@example.test changed Thing Type Operation “reboot”");
    expect(describeActivity({ ...entry, action: "delete", record: "location_types" })).toBe("alice@example.test deleted Location Type “Thermostat”");
  });

  it("shows a user the feed names by reference as the Members screen does", () => {
    expect(describeActivity({ ...entry, actor: "users:abc123" })).toBe("Unnamed user abc123 created Thing “Thermostat”");
  });

  it("reads without an actor or a label", () => {
    expect(describeActivity({ ...entry, actor: "", label: "" })).toBe("Someone created a Thing");
  });

  it("reads the stored timestamp as a date", () => {
    expect(timeOf(entry).toISOString()).toBe("2026-11-24T10:00:00.000Z");
  });
});
