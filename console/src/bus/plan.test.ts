import { describe, expect, it } from "vitest";
import { dialPlan } from "./plan";

const SERVER = ["ws://a:9222", "wss://b:443", "wss://bus.example:443"];

describe("dialPlan", () => {
  it("dials every address on an http page, ws:// included", () => {
    expect(dialPlan({ urls: ["ws://a:9222", "wss://b:443"], source: "server", admitted: SERVER }, "http:")).toEqual({ kind: "dial", urls: ["ws://a:9222", "wss://b:443"], skipped: [] });
  });
  it("refuses ws:// on an https page with a message naming the address", () => {
    const plan = dialPlan({ urls: ["ws://localhost:9222"], source: "default", admitted: ["ws://localhost:9222"] }, "https:");
    expect(plan.kind).toBe("refused");
    expect(plan.kind === "refused" && plan.message).toContain("ws://localhost:9222");
    expect(plan.kind === "refused" && plan.message).toMatch(/wss:\/\//);
  });
  it("on an https page keeps the wss:// members of a cluster and names the skipped ones", () => {
    expect(dialPlan({ urls: ["ws://a:9222", "wss://b:443"], source: "override", admitted: ["ws://a:9222", "wss://b:443"] }, "https:")).toEqual({ kind: "dial", urls: ["wss://b:443"], skipped: ["ws://a:9222"] });
  });
  it("refuses an override the page's policy does not admit, naming what it admits, and dials the admitted members", () => {
    const plan = dialPlan({ urls: ["ws://elsewhere:9222"], source: "override", admitted: ["ws://a:9222"] }, "http:");
    expect(plan).toEqual({
      kind: "refused",
      message: "This page's security policy lets the browser dial only ws://a:9222, so it refuses ws://elsewhere:9222: list the address in the server's bus.websocket_urls, or clear this device's override (Settings).",
    });
    expect(dialPlan({ urls: ["ws://elsewhere:9222", "WS://A:9222/path"], source: "override", admitted: ["ws://a:9222"] }, "http:")).toEqual({
      kind: "dial", urls: ["WS://A:9222/path"], skipped: ["ws://elsewhere:9222"],
    });
  });
  it("dials wss:// on an https page", () => {
    expect(dialPlan({ urls: ["wss://bus.example:443"], source: "server", admitted: SERVER }, "https:")).toEqual({ kind: "dial", urls: ["wss://bus.example:443"], skipped: [] });
  });
});
