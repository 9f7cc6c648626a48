import { describe, expect, it } from "vitest";
import { flagsHelp, parseFlags, UsageError } from "./flags";

const SPECS = { config: { boolean: false, help: "Config file.", value: "path" }, user: { boolean: true, help: "User unit." } };

describe("parseFlags", () => {
  it("reads values in both forms, switches and help", () => {
    expect(parseFlags("x", ["--config", "a.yaml", "--user"], SPECS)).toEqual({ config: "a.yaml", user: true });
    expect(parseFlags("x", ["--config=b.yaml", "-h"], SPECS)).toEqual({ config: "b.yaml", help: true });
  });

  it("refuses unknown flags, positional arguments, missing values and values on switches", () => {
    const refusal = (args: string[]) => {
      try {
        parseFlags("run", args, SPECS);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      throw new Error("expected a UsageError");
    };
    expect(refusal(["--verbose"])).toBe("agent run: unknown flag --verbose");
    expect(refusal(["extra"])).toBe('agent run: unexpected argument "extra"');
    expect(refusal(["--config"])).toBe("agent run: flag --config needs a value (path)");
    expect(refusal(["--user=yes"])).toBe("agent run: flag --user takes no value");
    expect(refusal(["--toString"])).toBe("agent run: unknown flag --toString");
  });

  it("lists the flags in help", () => {
    expect(flagsHelp(SPECS)).toBe("  --config <path>  Config file.\n  --user           User unit.\n  -h, --help       Show this help.");
  });
});
