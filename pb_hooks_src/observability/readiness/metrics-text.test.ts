import { describe, expect, it } from "vitest";
import { escapeLabelValue, formatValue, readinessSeries } from "./metrics-text";

describe("readinessSeries", () => {
  const lines = readinessSeries(
    [
      { name: "schema", state: "warn" },
      { name: "database", state: "ok" },
    ],
    "1.2.3",
    1_773_144_000,
  );

  it("has HELP and TYPE for every series", () => {
    for (const metric of ["platform_ready", "platform_check_state", "platform_check_timestamp_seconds", "platform_build_info"]) {
      expect(lines).toContain(`# TYPE ${metric} gauge`);
      expect(lines.some((l) => l.startsWith(`# HELP ${metric} `))).toBe(true);
    }
  });

  it("emits one series per check per state, 1 on the current state only, sorted by name", () => {
    expect(lines.filter((l) => l.startsWith("platform_check_state{"))).toEqual([
      'platform_check_state{name="database",state="ok"} 1',
      'platform_check_state{name="database",state="warn"} 0',
      'platform_check_state{name="database",state="fail"} 0',
      'platform_check_state{name="database",state="skipped"} 0',
      'platform_check_state{name="schema",state="ok"} 0',
      'platform_check_state{name="schema",state="warn"} 1',
      'platform_check_state{name="schema",state="fail"} 0',
      'platform_check_state{name="schema",state="skipped"} 0',
    ]);
  });

  it("reports ready 1 with warnings, the probe time and build info", () => {
    expect(lines).toContain("platform_ready 1");
    expect(lines).toContain("platform_check_timestamp_seconds 1773144000");
    expect(lines).toContain('platform_build_info{version="1.2.3"} 1');
  });

  it("reports ready 0 when a check fails", () => {
    const failing = readinessSeries([{ name: "bus_trust", state: "fail" }, { name: "x", state: "ok" }], "v", 1.5);
    expect(failing).toContain("platform_ready 0");
    expect(failing).toContain('platform_check_state{name="bus_trust",state="fail"} 1');
    expect(failing).toContain("platform_check_timestamp_seconds 1.5");
  });

  it("escapes label values", () => {
    const escaped = readinessSeries([{ name: 'a"b\\c\nd', state: "ok" }], 'v"1\\\n', 0);
    expect(escaped).toContain('platform_check_state{name="a\\"b\\\\c\\nd",state="ok"} 1');
    expect(escaped).toContain('platform_build_info{version="v\\"1\\\\\\n"} 1');
    expect(escapeLabelValue("plain")).toBe("plain");
  });

  it("formats special values", () => {
    expect(formatValue(NaN)).toBe("NaN");
    expect(formatValue(Infinity)).toBe("+Inf");
    expect(formatValue(-Infinity)).toBe("-Inf");
  });
});
