import { describe, expect, it } from "vitest";
import { asciiLowerCase, sameMailbox, trimAsciiSpace } from "./mailbox";

describe("asciiLowerCase", () => {
  it("lowers ASCII letters only", () => {
    expect(asciiLowerCase("Bob.SMITH@Example.COM")).toBe("bob.smith@example.com");
    expect(asciiLowerCase("already-lower_09+tag@x.test")).toBe("already-lower_09+tag@x.test");
  });

  it("leaves every non-ASCII character as it is, look-alikes of ASCII letters included", () => {
    expect(asciiLowerCase("\u212Aate@example.com")).toBe("\u212Aate@example.com"); // KELVIN SIGN
    expect(asciiLowerCase("\u0130nci@example.com")).toBe("\u0130nci@example.com"); // I WITH DOT ABOVE
    expect(asciiLowerCase("J\u00DCRGEN@Example.com")).toBe("j\u00DCrgen@example.com"); // Ü stays upper case
    expect(asciiLowerCase("\u00C5ngstr\u00F6m@x.test")).toBe("\u00C5ngstr\u00F6m@x.test");
  });
});

describe("sameMailbox", () => {
  it("matches addresses that differ in ASCII letter case only", () => {
    expect(sameMailbox("kate@example.com", "KATE@Example.com")).toBe(true);
    expect(sameMailbox("Bob@example.com", "bob@EXAMPLE.COM")).toBe(true);
  });

  it("refuses look-alikes that full Unicode case mapping would fold onto the address", () => {
    expect("\u212Aate@example.com".toLowerCase()).toBe("kate@example.com"); // what the old comparison did
    expect(sameMailbox("\u212Aate@example.com", "kate@example.com")).toBe(false);
    expect(sameMailbox("\u0130nci@example.com", "i\u0307nci@example.com")).toBe(false);
    expect(sameMailbox("\u017Fam@example.com", "Sam@example.com")).toBe(false); // LONG S upper-cases to S
  });

  it("compares non-ASCII characters byte-exact, case variants included", () => {
    expect(sameMailbox("j\u00FCrgen@example.com", "J\u00DCRGEN@example.com")).toBe(false);
    expect(sameMailbox("j\u00FCrgen@example.com", "JüRGEN@example.com")).toBe(true);
  });
});

describe("trimAsciiSpace", () => {
  it("trims ASCII whitespace at either end", () => {
    expect(trimAsciiSpace(" \t kate@example.com \r\n")).toBe("kate@example.com");
    expect(trimAsciiSpace("kate@example.com")).toBe("kate@example.com");
  });

  it("keeps Unicode spaces, which String#trim would strip: the address with one is another mailbox", () => {
    for (const space of ["\u00A0", "\uFEFF", "\u3000", "\u2028", "\u1680", "\u2002"]) {
      expect(`${space}kate@example.com`.trim()).toBe("kate@example.com"); // what the old code did
      expect(trimAsciiSpace(`${space}kate@example.com`)).toBe(`${space}kate@example.com`);
      expect(trimAsciiSpace(` kate@example.com${space} `)).toBe(`kate@example.com${space}`);
    }
  });
});
