import { describe, expect, it } from "vitest";
import { commandName } from "./command-line";

describe("commandName", () => {
  const valued = new Set(["dir", "hooksDir", "config", "bus-config", "encryptionEnv"]);
  const takesValue = (flag: string) => valued.has(flag);

  it("finds the command past flags and their values", () => {
    expect(commandName(["serve", "--http", "x"], takesValue)).toBe("serve");
    expect(commandName(["--dev=false", "serve"], takesValue)).toBe("serve");
    expect(commandName(["--dir", "serve", "migrate", "up"], takesValue)).toBe("migrate");
    expect(commandName(["--bus", "--bus-config", "serve", "serve"], takesValue)).toBe("serve");
    expect(commandName(["--bus", "migrate", "serve"], takesValue)).toBe("migrate");
    expect(commandName(["--", "serve"], takesValue)).toBe("serve");
    expect(commandName(["--dev"], takesValue)).toBe("");
  });
});
