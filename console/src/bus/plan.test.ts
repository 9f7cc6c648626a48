import { describe, expect, it } from "vitest";
import { dialPlan } from "./plan";

describe("dialPlan", () => {
  it("dials every address on an http page, ws:// included", () => {
    expect(dialPlan({ urls: ["ws://a:9222", "wss://b:443"], source: "server" }, "http:")).toEqual({ kind: "dial", urls: ["ws://a:9222", "wss://b:443"], skipped: [] });
  });
  it("refuses ws:// on an https page with a message naming the address", () => {
    const plan = dialPlan({ urls: ["ws://localhost:9222"], source: "default" }, "https:");
    expect(plan.kind).toBe("refused");
    expect(plan.kind === "refused" && plan.message).toContain("ws://localhost:9222");
    expect(plan.kind === "refused" && plan.message).toMatch(/wss:\/\//);
  });
  it("on an https page keeps the wss:// members of a cluster and names the skipped ones", () => {
    expect(dialPlan({ urls: ["ws://a:9222", "wss://b:443"], source: "override" }, "https:")).toEqual({ kind: "dial", urls: ["wss://b:443"], skipped: ["ws://a:9222"] });
  });
  it("dials wss:// on an https page", () => {
    expect(dialPlan({ urls: ["wss://bus.example:443"], source: "server" }, "https:")).toEqual({ kind: "dial", urls: ["wss://bus.example:443"], skipped: [] });
  });
});
