import { describe, expect, it } from "vitest";
import { remappedSubject } from "./managed";

describe("remappedSubject", () => {
  it("puts the organization code under the exported subtree", () => {
    expect(remappedSubject("helpdesk.>", "acme")).toBe("helpdesk.acme.>");
    expect(remappedSubject("support.tickets.>", "acme")).toBe("support.tickets.acme.>");
  });
});
