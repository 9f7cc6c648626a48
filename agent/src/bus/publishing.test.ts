import { describe, expect, it } from "vitest";
import { AGENT_VERSION } from "../version";
import { heartbeat } from "./publishing";

describe("heartbeat", () => {
  it("carries the version, the uptime as duration text, the time and the readiness state", () => {
    const readiness = { report: () => ({ status: 200, body: { state: "warn", ready: true } }) };
    const beat = heartbeat(readiness, new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T01:02:03Z"));
    expect(beat).toEqual({ version: AGENT_VERSION, uptime: "1h2m3s", time: "2026-01-01T01:02:03.000Z", state: "warn" });
    expect(JSON.stringify(beat).length).toBeLessThan(200);
  });
});
