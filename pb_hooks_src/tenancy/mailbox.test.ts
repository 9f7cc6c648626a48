import { describe, expect, it } from "vitest";
import { asciiLowerCase, sameMailbox } from "./mailbox";

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
