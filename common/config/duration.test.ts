import { describe, expect, it } from "vitest";
import { parseDuration, positiveDurationProblem } from "./duration";

describe("parseDuration", () => {
  it.each([
    ["15s", 15_000],
    ["5s", 5_000],
    ["1m30s", 90_000],
    ["500ms", 500],
    ["720h", 2_592_000_000],
    ["1.5h", 5_400_000],
    [".5s", 500],
    ["1h2m3s4ms", 3_723_004],
    ["2us", 0.002],
    ["3µs", 0.003],
    ["1000000ns", 1],
    ["0", 0],
    ["+1s", 1_000],
    ["-1s", -1_000],
  ])("reads %s", (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
  });

  it.each(["", "15", "s", "1.s5", "1d", "1 s", " 1s", "1s ", "1S", "--1s", "1m-30s", "."])("refuses %j", (text) => {
    expect(() => parseDuration(text)).toThrow(`${JSON.stringify(text)} is not a duration (examples: 15s, 1m30s, 500ms, 720h)`);
  });
});

describe("positiveDurationProblem", () => {
  it("accepts a duration above zero and names what is wrong otherwise", () => {
    expect(positiveDurationProblem("1ms")).toBeUndefined();
    expect(positiveDurationProblem("0")).toBe('must be greater than zero, got "0"');
    expect(positiveDurationProblem("-1s")).toBe('must be greater than zero, got "-1s"');
    expect(positiveDurationProblem("1d")).toBe('is invalid: "1d" is not a duration (examples: 15s, 1m30s, 500ms, 720h)');
  });
});
