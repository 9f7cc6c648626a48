import { describe, expect, it } from "vitest";
import { CODE_ALPHABET, generateThingCode, isCodeUnder, thingEmail } from "./codes";
import { THING_CODE_PATTERN } from "./collections";

const fixed = (length: number) => "A7".repeat(length).slice(0, length);

describe("generateThingCode", () => {
  it("puts the prefix before hyphen-separated alphanumeric groups", () => {
    expect(generateThingCode("SENS", fixed)).toBe("SENS-A7A7-A7A7");
  });

  it("falls back to a default prefix when the type has none", () => {
    expect(generateThingCode("", fixed)).toMatch(/^TH-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  });

  it("always produces a code the schema accepts", () => {
    const random = (length: number) =>
      Array.from({ length }, (_, i) => CODE_ALPHABET[(i * 7) % CODE_ALPHABET.length]).join("");
    expect(generateThingCode("GW", random)).toMatch(new RegExp(THING_CODE_PATTERN));
  });
});

describe("isCodeUnder", () => {
  it("holds for a code generated under the prefix, the default one for a type without", () => {
    expect(isCodeUnder(generateThingCode("SENS", fixed), "SENS")).toBe(true);
    expect(isCodeUnder(generateThingCode("", fixed), "")).toBe(true);
    expect(isCodeUnder(generateThingCode("GW-EU", fixed), "GW-EU")).toBe(true);
  });

  it("fails once the prefix differs, however much of it the code shares", () => {
    expect(isCodeUnder(generateThingCode("SENS", fixed), "GW")).toBe(false);
    expect(isCodeUnder(generateThingCode("GW-EU", fixed), "GW")).toBe(false);
    expect(isCodeUnder(generateThingCode("GW", fixed), "GW-EU")).toBe(false);
    expect(isCodeUnder(generateThingCode("", fixed), "SENS")).toBe(false);
    expect(isCodeUnder("A7A7-A7A7", "")).toBe(false);
  });
});

describe("thingEmail", () => {
  it("has the shape <thing code>@<organization code>.thing.local", () => {
    expect(thingEmail("SENS-AB12-CD34", "acme")).toBe("SENS-AB12-CD34@acme.thing.local");
  });
});
