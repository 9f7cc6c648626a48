import { describe, expect, it } from "vitest";
import type { ProbeSettings } from "../common/sidecar/protocol";
import { parseStartupLine } from "./startup";

const TOKEN = "secret-token-0123456789";
const PROBE: ProbeSettings = { url: "http://127.0.0.1:8090", checks: ["database", "schema"], intervalMs: 30_000, timeoutMs: 5_000 };

const line = (probe: unknown) => JSON.stringify({ token: TOKEN, stateFile: "/run/state.json", probe });

/** The message parseStartupLine refuses `probe` with; it must never quote the token. */
function refusal(probe: unknown): string {
  try {
    parseStartupLine(line(probe));
  } catch (err) {
    const message = (err as Error).message;
    expect(message).not.toContain(TOKEN);
    return message;
  }
  throw new Error("expected the startup line to be refused");
}

describe("parseStartupLine: probe settings", () => {
  it("leaves probe out when the line has none", () => {
    expect(parseStartupLine(JSON.stringify({ token: TOKEN, stateFile: "/x" }))).not.toHaveProperty("probe");
  });

  it("reads valid probe settings", () => {
    expect(parseStartupLine(line(PROBE))).toEqual({ token: TOKEN, stateFile: "/run/state.json", probe: PROBE });
  });

  it("reads an https url with a server name", () => {
    const probe = { ...PROBE, url: "https://127.0.0.1:443", serverName: "pb.example.com" };
    expect(parseStartupLine(line(probe)).probe).toEqual(probe);
  });

  it("drops an empty server name", () => {
    expect(parseStartupLine(line({ ...PROBE, serverName: "" })).probe).not.toHaveProperty("serverName");
  });

  it("drops fields it does not know", () => {
    expect(parseStartupLine(line({ ...PROBE, extra: 1 })).probe).toEqual(PROBE);
  });

  it("reads the nodes of a hub to watch", () => {
    const probe = { ...PROBE, busNodes: ["nats://10.0.0.1:4222", "nats://10.0.0.2:4222", "nats://10.0.0.3:4222"] };
    expect(parseStartupLine(line(probe)).probe).toEqual(probe);
  });

  it("refuses bus nodes that are not two or more URLs", () => {
    for (const busNodes of [["nats://10.0.0.1:4222"], "nats://a:4222 nats://b:4222", ["nats://a:4222", "b:4222"]]) {
      expect(refusal({ ...PROBE, busNodes })).toBe("probe.busNodes must list two or more bus URLs");
    }
  });

  it("refuses a probe that is null", () => {
    expect(refusal(null)).toBe("probe.url must be an http(s) URL");
  });

  it("refuses a missing url", () => {
    expect(refusal({ ...PROBE, url: undefined })).toBe("probe.url must be an http(s) URL");
  });

  it("refuses a url that is not http(s)", () => {
    expect(refusal({ ...PROBE, url: "ftp://127.0.0.1:8090" })).toBe("probe.url must be an http(s) URL");
  });

  it("refuses a server name that is not a string", () => {
    expect(refusal({ ...PROBE, serverName: 5 })).toBe("probe.serverName must be a string");
  });

  it("refuses checks that are not an array", () => {
    expect(refusal({ ...PROBE, checks: "database" })).toBe("probe.checks must list check names");
  });

  it("refuses an empty list of checks", () => {
    expect(refusal({ ...PROBE, checks: [] })).toBe("probe.checks must list check names");
  });

  it("refuses a check name that is empty or not a string", () => {
    expect(refusal({ ...PROBE, checks: ["database", ""] })).toBe("probe.checks must list check names");
    expect(refusal({ ...PROBE, checks: ["database", 7] })).toBe("probe.checks must list check names");
  });

  it("refuses a missing intervalMs", () => {
    expect(refusal({ ...PROBE, intervalMs: undefined })).toBe("probe.intervalMs must be a positive integer");
  });

  it("refuses an intervalMs of zero", () => {
    expect(refusal({ ...PROBE, intervalMs: 0 })).toBe("probe.intervalMs must be a positive integer");
  });

  it("refuses a fractional intervalMs", () => {
    expect(refusal({ ...PROBE, intervalMs: 1.5 })).toBe("probe.intervalMs must be a positive integer");
  });

  it("refuses an intervalMs given as a string", () => {
    expect(refusal({ ...PROBE, intervalMs: "30000" })).toBe("probe.intervalMs must be a positive integer");
  });

  it("refuses a negative timeoutMs", () => {
    expect(refusal({ ...PROBE, timeoutMs: -1 })).toBe("probe.timeoutMs must be a positive integer");
  });

  it("refuses a missing timeoutMs", () => {
    expect(refusal({ ...PROBE, timeoutMs: undefined })).toBe("probe.timeoutMs must be a positive integer");
  });

  it("takes the credential upkeep's period when given, and refuses one that is not a positive integer", () => {
    expect(refusal({ ...PROBE, upkeepIntervalMs: 0 })).toBe("probe.upkeepIntervalMs must be a positive integer");
    expect(refusal({ ...PROBE, upkeepIntervalMs: "1000" })).toBe("probe.upkeepIntervalMs must be a positive integer");
    const line = JSON.stringify({ token: TOKEN, stateFile: "/x", probe: { ...PROBE, upkeepIntervalMs: 1_000 } });
    expect(parseStartupLine(line).probe?.upkeepIntervalMs).toBe(1_000);
  });

  it("never quotes the token even when the token is also put in a probe field", () => {
    expect(refusal({ ...PROBE, url: TOKEN })).toBe("probe.url must be an http(s) URL");
    expect(refusal({ ...PROBE, checks: TOKEN })).toBe("probe.checks must list check names");
  });
});
