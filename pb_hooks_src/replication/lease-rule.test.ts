import { describe, expect, it } from "vitest";
import { NO_LEASE_YET, leaseRefusal, parseLeaseState } from "./lease-rule";

describe("leaseRefusal", () => {
  it("lets writes through while the lease is held and not past its time", () => {
    expect(leaseRefusal({ held: true, untilMs: 2_000, holder: "me", detail: "" }, 1_999)).toBeUndefined();
  });

  it("refuses once the held lease's time has passed without a renewal", () => {
    expect(leaseRefusal({ held: true, untilMs: 2_000, holder: "me", detail: "" }, 2_000)).toMatch(/does not accept writes: its write lease lapsed without a renewal/);
  });

  it("refuses, naming no holder, while another holds it and before it was ever taken", () => {
    expect(leaseRefusal({ held: false, untilMs: 0, holder: "host/id#tok", detail: "the lease is held by host/id#tok" }, 0)).toMatch(/does not accept writes: another control plane holds the write lease\./);
    expect(leaseRefusal(NO_LEASE_YET, 0)).toMatch(/does not accept writes: it does not hold the write lease\./);
    expect(leaseRefusal({ held: false, untilMs: 0, holder: "host/id#tok", detail: "" }, 0)).not.toContain("host/");
  });
});

describe("parseLeaseState", () => {
  it("reads a report and refuses anything else", () => {
    expect(parseLeaseState({ held: true, untilMs: 5, holder: "h", detail: "" })).toEqual({ held: true, untilMs: 5, holder: "h", detail: "" });
    for (const bad of [null, "x", { held: "yes", untilMs: 5, holder: "", detail: "" }, { held: true, untilMs: 1.5, holder: "", detail: "" }, { held: true, untilMs: 5 }]) {
      expect(parseLeaseState(bad)).toBeUndefined();
    }
  });
});
