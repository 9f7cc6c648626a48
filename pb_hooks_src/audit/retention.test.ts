import { describe, expect, it } from "vitest";
import { dbTime, excess, isEmptyPlan, retentionPlan, withOverrides } from "./retention";

const NOW = new Date("2026-03-10T12:00:00.000Z");

describe("retentionPlan", () => {
  it("is empty when both limits are off", () => {
    const plan = retentionPlan({ max_age: "", max_records: 0 }, NOW);
    expect(plan).toEqual({});
    expect(isEmptyPlan(plan)).toBe(true);
  });

  it("cuts off entries older than max_age, in PocketBase's datetime text", () => {
    expect(retentionPlan({ max_age: "720h", max_records: 0 }, NOW)).toEqual({ cutoff: "2026-02-08 12:00:00.000Z" });
    expect(retentionPlan({ max_age: "1m30s", max_records: 0 }, NOW).cutoff).toBe("2026-03-10 11:58:30.000Z");
    // An age past 1970 removes nothing by age, and the count limit still applies.
    expect(retentionPlan({ max_age: "99999999999h", max_records: 5 }, NOW)).toEqual({ keep: 5 });
    expect(retentionPlan({ max_age: "876000h", max_records: 0 }, NOW)).toEqual({});
  });

  it("keeps the newest max_records", () => {
    expect(retentionPlan({ max_age: "", max_records: 500 }, NOW)).toEqual({ keep: 500 });
    expect(retentionPlan({ max_age: "1h", max_records: 3 }, NOW)).toEqual({ cutoff: "2026-03-10 11:00:00.000Z", keep: 3 });
  });
});

describe("excess", () => {
  it.each([
    [10, undefined, 0],
    [10, 20, 0],
    [10, 10, 0],
    [10, 3, 7],
    [0, 1, 0],
  ])("of %i entries keeping %s is %i", (total, keep, expected) => {
    expect(excess(total, keep)).toBe(expected);
  });
});

describe("dbTime", () => {
  it("sorts like time as text", () => {
    const earlier = dbTime(new Date("2026-03-09T23:59:59.999Z"));
    const later = dbTime(new Date("2026-03-10T00:00:00.000Z"));
    expect(earlier < later).toBe(true);
    expect(later).toBe("2026-03-10 00:00:00.000Z");
  });
});

describe("withOverrides", () => {
  const configured = { max_age: "720h", max_records: 1000 };

  it("keeps the configuration for absent flags", () => {
    expect(withOverrides(configured, { maxAge: "", maxRecords: "" })).toEqual(configured);
  });

  it("replaces each given limit", () => {
    expect(withOverrides(configured, { maxAge: "3s", maxRecords: "" })).toEqual({ max_age: "3s", max_records: 1000 });
    expect(withOverrides(configured, { maxAge: "", maxRecords: "0" })).toEqual({ max_age: "720h", max_records: 0 });
  });

  it.each([
    [{ maxAge: "3 days", maxRecords: "" }, "not a duration"],
    [{ maxAge: "0", maxRecords: "" }, "--max-age must be greater than zero"],
    [{ maxAge: "-1h", maxRecords: "" }, "--max-age must be greater than zero"],
    [{ maxAge: "", maxRecords: "-1" }, "--max-records must be a whole number"],
    [{ maxAge: "", maxRecords: "1.5" }, "--max-records must be a whole number"],
  ])("refuses %j", (flags, message) => {
    expect(() => withOverrides(configured, flags)).toThrow(message);
  });
});
