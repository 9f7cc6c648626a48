import { describe, expect, it } from "vitest";
import { enrollCommand, explainCreateError, identityModes, newThingPassword, PASSWORD_LENGTH, SUSPENDED_BUS_AUTO } from "./things";

describe("things rules", () => {
  it("offers members only none, owners and admins all three modes", () => {
    expect(identityModes({ role: "member", operator: false })).toEqual(["none"]);
    expect(identityModes({ role: "owner", operator: false })).toEqual(["none", "auto", "link"]);
    expect(identityModes({ role: "admin", operator: true })).toEqual(["none", "auto", "link"]);
  });

  it("writes the enrollment command of agent/README.md, the password on stdin", () => {
    expect(enrollCommand("https://iot.example.com", "t1@acme.thing.local")).toBe(
      `printf '%s\\n' "$PASSWORD" | agent enroll --platform https://iot.example.com --email t1@acme.thing.local`,
    );
  });

  it("makes 24-character alphanumeric passwords, skipping biased bytes", () => {
    expect(newThingPassword()).toMatch(new RegExp(`^[A-Za-z0-9]{${PASSWORD_LENGTH}}$`));
    // 255 is above the largest multiple of 62 below 256 and must be skipped.
    const bytes = (b: Uint8Array) => b.fill(255).fill(0, 0, 30);
    expect(newThingPassword(bytes)).toBe("A".repeat(PASSWORD_LENGTH));
  });

  it("explains the suspended organization's refusal of bus auto, other messages unchanged", () => {
    expect(explainCreateError("no active bus account for the organization")).toContain(SUSPENDED_BUS_AUTO);
    expect(explainCreateError("name is required")).toBe("name is required");
  });
});
