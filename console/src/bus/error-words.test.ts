import { describe, expect, it } from "vitest";
import { busErrorWords, refusesIdentity, suspendedWords } from "./error-words";

const named = (name: string, message: string) => Object.assign(new Error(message), { name });

describe("busErrorWords", () => {
  it("says who can mend a refusal instead of the protocol line", () => {
    expect(busErrorWords(new Error("'Authorization Violation'"))).toBe(
      "the bus refused your bus identity (suspended, revoked, or its organization suspended): an owner or admin can tell which",
    );
    expect(busErrorWords(new Error("'User Authentication Revoked'"))).toMatch(/^the bus revoked this credential/);
    expect(busErrorWords(new Error("Permissions Violation for Publish to \"x\""))).toMatch(/may not use that subject/);
    expect(busErrorWords(new Error("maximum account active connections exceeded"))).toMatch(/no connection left/);
  });

  it("names the addresses no server answered at, not the error class", () => {
    expect(busErrorWords(named("ConnectionError", ""), ["ws://127.0.0.1:9222"])).toBe("no bus server answered at ws://127.0.0.1:9222");
    expect(busErrorWords(named("ConnectionError", "ConnectionError"))).toBe("no bus server answered");
  });

  it("keeps any other message as it is", () => {
    expect(busErrorWords(new Error("something else"))).toBe("something else");
    expect(busErrorWords("text")).toBe("text");
  });

  it("tells the hub's refusals of the credential itself from other errors", () => {
    expect(refusesIdentity(new Error("'Authorization Violation'"))).toBe(true);
    expect(refusesIdentity(new Error("'User Authentication Revoked'"))).toBe(true);
    expect(refusesIdentity(new Error("Permissions Violation for Publish to \"x\""))).toBe(false);
    expect(refusesIdentity(named("ConnectionError", ""))).toBe(false);
  });

  it("says a suspended identity is suspended, who mends it, and that the page reconnects by itself", () => {
    const words = suspendedWords("browser-7");
    expect(words).toContain("“browser-7” is suspended");
    expect(words).toContain("owner or admin");
    expect(words).not.toMatch(/reconnecting/i);
  });
});
