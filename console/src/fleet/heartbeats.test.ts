import { describe, expect, it } from "vitest";
import { ageWords, beatOf, heartbeatCode } from "./heartbeats";

describe("heartbeat age", () => {
  const quietAfter = 45_000;
  it("heard within the threshold is recent, longer ago quiet", () => {
    expect(beatOf(100_000, 0, 140_000, quietAfter)).toBe("recent");
    expect(beatOf(100_000, 0, 146_000, quietAfter)).toBe("quiet");
  });

  it("not heard: quiet only once the threshold has passed since listening began, unknown when not listening", () => {
    expect(beatOf(undefined, 100_000, 130_000, quietAfter)).toBe("not-heard-yet");
    expect(beatOf(undefined, 100_000, 146_000, quietAfter)).toBe("quiet");
    expect(beatOf(undefined, null, 1e12, quietAfter)).toBe("unknown");
  });

  it("reads the Thing code of a default-prefix heartbeat subject only", () => {
    expect(heartbeatCode("agents.TH-0001.heartbeat")).toBe("TH-0001");
    expect(heartbeatCode("agents.a.b.heartbeat")).toBeNull();
    expect(heartbeatCode("agents..heartbeat")).toBeNull();
    expect(heartbeatCode("agents.TH-0001.telemetry")).toBeNull();
    expect(heartbeatCode("site.agents.TH-0001.heartbeat")).toBeNull();
  });

  it("words an age in its largest whole unit", () => {
    expect([ageWords(5_400), ageWords(600_000), ageWords(4 * 3_600_000), ageWords(3 * 86_400_000), ageWords(-5)]).toEqual(["5 s", "10 min", "4 h", "3 d", "0 s"]);
  });
});
