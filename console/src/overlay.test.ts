import { describe, expect, it } from "vitest";
import { ROTATION_STEPS, type RotationState } from "../../common/overlay/rotation";
import { blockingHost, configFileName, hostPayload, rotationStateText, stepAllowed, stepEffect, validityText } from "./overlay";

describe("overlay screen", () => {
  it("offers each step only from the states the server accepts it in (docs/overlay.md)", () => {
    const offered = (state: RotationState) => ROTATION_STEPS.filter((step) => stepAllowed(step, state));
    expect(offered("")).toEqual(["prepare"]);
    expect(offered("prepared")).toEqual(["prepare", "commit"]);
    expect(offered("committed")).toEqual(["commit", "finish"]);
  });

  it("says what each step will do from the current state", () => {
    expect(stepEffect("prepare", "")).toMatch(/no certificate changes/);
    expect(stepEffect("prepare", "prepared")).toMatch(/^Replaces the incoming CA/);
    expect(stepEffect("commit", "prepared")).toMatch(/re-signs every active host/);
    expect(stepEffect("commit", "committed")).toMatch(/resumed/);
    expect(stepEffect("finish", "committed")).toMatch(/cannot be undone/);
    expect(rotationStateText("")).toMatch(/No rotation/);
    expect(rotationStateText("committed")).toMatch(/^Committed/);
  });

  it("finds the host a refused step names, in both refusals of finish", () => {
    expect(blockingHost('active host "edge-b" (id abc123def456789) still holds a certificate of the outgoing overlay CA: run commit again to re-sign it'))
      .toEqual({ name: "edge-b", id: "abc123def456789" });
    expect(blockingHost('the overlay CA rotation is prepared but not committed: commit before finish; active host "a b" (id x1) still holds a certificate of the outgoing overlay CA'))
      .toEqual({ name: "a b", id: "x1" });
    expect(blockingHost("no overlay CA rotation is under way: prepare and commit before finish")).toBeNull();
  });

  it("sends a new host trimmed, active, with its groups as a list without blanks or repeats", () => {
    expect(hostPayload({ name: " edge ", network: "n1", overlay_ip: " 10.42.0.5 ", groups: "a, b,,a ", is_lighthouse: true, public_endpoint: " 1.2.3.4:4242 " })).toEqual({
      name: "edge", network: "n1", overlay_ip: "10.42.0.5", groups: ["a", "b"], active: true, is_lighthouse: true, public_endpoint: "1.2.3.4:4242",
    });
    expect(hostPayload({ name: "e", network: "n", overlay_ip: "10.0.0.2", groups: " ", is_lighthouse: false, public_endpoint: "" }).groups).toEqual([]);
  });

  it("says a certificate's validity in days, from PocketBase's date format", () => {
    const now = new Date("2026-11-24T00:00:00Z");
    expect(validityText("2036-11-24 00:00:00.000Z", now)).toBe("valid until 2036-11-24 (3653 days left)");
    expect(validityText("2026-11-25 12:00:00.000Z", now)).toBe("valid until 2026-11-25 (1 day left)");
    expect(validityText("2026-11-01 00:00:00.000Z", now)).toBe("expired on 2026-11-01");
    expect(validityText("", now)).toBe("no expiry recorded");
  });

  it("names the config file after the host", () => {
    expect(configFileName("edge a/1")).toBe("edge-a-1.yml");
    expect(configFileName("..")).toBe("overlay-host.yml");
  });
});
