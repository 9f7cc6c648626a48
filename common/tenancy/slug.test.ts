import { describe, expect, it } from "vitest";
import { ORGANIZATION_CODE_PATTERN, slugify } from "./slug";

describe("slugify", () => {
  it.each([
    ["Acme Corp", "acme-corp"],
    ["  Ünïcode & Co. ", "n-code-co"],
    ["---", "org"],
    ["A".repeat(100), "a".repeat(63)],
  ])("%s -> %s", (name, code) => {
    expect(slugify(name)).toBe(code);
    expect(slugify(name)).toMatch(new RegExp(ORGANIZATION_CODE_PATTERN));
  });
});
