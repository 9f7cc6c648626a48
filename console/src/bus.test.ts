import { describe, expect, it } from "vitest";
import { allowedSubjects, busConfirmation, bytesInWords, limitRows, permissionWords, removalConsequence, removalRefusal, subjectsOf, withAllowed } from "./bus";

describe("bus account in words", () => {
  it("says whether the bus confirmed the recorded state, with its answer when it did not", () => {
    expect(busConfirmation({ active: true, bus_confirmed: true })).toBe("Confirmed by the bus");
    expect(busConfirmation({ active: false, bus_confirmed: true })).toBe("Withdrawn, confirmed by the bus");
    expect(busConfirmation({ active: true, bus_confirmed: false, bus_status: "no responders" })).toBe("Not confirmed by the bus: no responders");
    expect(busConfirmation({ active: true })).toBe("Not confirmed by the bus");
  });

  it("shows limits with labels, sizes in binary units and -1 as unlimited", () => {
    expect(limitRows({ max_connections: 100, max_payload: 1048576, max_persist_disk_storage: 5368709120, max_data: -1, custom: 7, note: "x" })).toEqual([
      { label: "Connections", value: "100" },
      { label: "Message payload", value: "1 MiB" },
      { label: "Data", value: "Unlimited" },
      { label: "Persistent disk storage", value: "5 GiB" },
      { label: "custom", value: "7" },
    ]);
    expect(limitRows(null)).toEqual([]);
  });

  it("lists the limits in the same order whatever the order of the stored keys", () => {
    const stored = { max_subscriptions: 1, zeta: 2, max_connections: 3, alpha: 4, max_payload: 5 };
    const reversed = Object.fromEntries(Object.entries(stored).reverse());
    const labels = ["Connections", "Subscriptions", "Message payload", "alpha", "zeta"];
    expect(limitRows(stored).map((row) => row.label)).toEqual(labels);
    expect(limitRows(reversed).map((row) => row.label)).toEqual(labels);
    expect(bytesInWords(1536)).toBe("1.5 KiB");
    expect(bytesInWords(12)).toBe("12 bytes");
  });
});

describe("signing keys", () => {
  it("refuses the last key in words and lets any other go", () => {
    expect(removalRefusal(["AK1"])).toContain("The last signing key cannot be removed");
    expect(removalRefusal([])).not.toBe("");
    expect(removalRefusal(["AK1", "AK2"])).toBe("");
  });

  it("says that removing the first key re-signs every credential, and that another key's removal does not", () => {
    expect(removalConsequence(["AK1", "AK2"], "AK1")).toContain("every creds file issued before stops validating");
    expect(removalConsequence(["AK1", "AK2"], "AK2")).toContain("existing creds files stay valid");
  });
});

describe("role permissions", () => {
  it("reads subjects separated by commas, blanks or lines, without empties or repeats", () => {
    expect(subjectsOf("telemetry.>, cmd.*\n\n  health  telemetry.>")).toEqual(["telemetry.>", "cmd.*", "health"]);
    expect(subjectsOf("  ")).toEqual([]);
  });

  it("shows the allow list of either recorded shape and keeps a deny list when writing back", () => {
    expect(allowedSubjects({ allow: ["a", 1, ""], deny: ["b"] })).toEqual(["a"]);
    expect(allowedSubjects(["x", "y"])).toEqual(["x", "y"]);
    expect(allowedSubjects(null)).toEqual([]);
    expect(withAllowed({ allow: ["a"], deny: ["b"] }, ["c"])).toEqual({ allow: ["c"], deny: ["b"] });
    expect(withAllowed(["a"], ["c"])).toEqual({ allow: ["c"] });
    expect(withAllowed(undefined, [])).toEqual({ allow: [] });
  });

  it("reads an empty allow list as every subject allowed, never as a dash", () => {
    expect(permissionWords({ allow: [] })).toBe("any subject");
    expect(permissionWords(null)).toBe("any subject");
    expect(permissionWords([])).toBe("any subject");
    expect(permissionWords({ allow: [], deny: ["admin.>"] })).toBe("any subject except admin.>");
    expect(permissionWords({ allow: ["a.>", "b"], deny: ["a.secret"] })).toBe("a.>, b except a.secret");
    expect(permissionWords(["x"])).toBe("x");
  });
});
