import { describe, expect, it } from "vitest";
import { escapeLabelValue, family, formatValue, renderExposition, renderFamily, single } from "./exposition";

describe("renderFamily", () => {
  it("writes HELP, TYPE and one line per sample with escaped label values", () => {
    const lines = renderFamily(family("platform_records", "gauge", "Rows.", [
      { labels: [["collection", "things"]], value: 3 },
      { labels: [["collection", 'a"b\\c\nd']], value: 0 },
    ]));
    expect(lines).toEqual([
      "# HELP platform_records Rows.",
      "# TYPE platform_records gauge",
      'platform_records{collection="things"} 3',
      'platform_records{collection="a\\"b\\\\c\\nd"} 0',
    ]);
  });

  it("renders nothing for a family without samples: absent, not zero", () => {
    expect(renderFamily(family("platform_certificates", "gauge", "x", []))).toEqual([]);
  });

  it("writes an unlabelled sample without braces and spells special values as the format does", () => {
    expect(renderFamily(single("x_seconds", "gauge", "h", 0.25))[2]).toBe("x_seconds 0.25");
    expect(renderFamily(single("x", "gauge", "h", Infinity))[2]).toBe("x +Inf");
  });
});

describe("renderExposition", () => {
  it("ends every line with a newline", () => {
    expect(renderExposition(["a 1", "b 2"])).toBe("a 1\nb 2\n");
    expect(renderExposition([])).toBe("");
  });
});

describe("escapeLabelValue and formatValue", () => {
  it("escape backslash, double quote and newline, and nothing else", () => {
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    expect(escapeLabelValue("plain")).toBe("plain");
  });

  it("spell special values as the format does", () => {
    expect(formatValue(NaN)).toBe("NaN");
    expect(formatValue(Infinity)).toBe("+Inf");
    expect(formatValue(-Infinity)).toBe("-Inf");
    expect(formatValue(1.5)).toBe("1.5");
  });
});
