import { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { credsFileName, rotationRefusal } from "./own-identity";

const refused = (status: number, message: string) => new ClientResponseError({ status, response: { message } });

describe("own bus identity", () => {
  it("names the creds file after the identity, safely", () => {
    expect(credsFileName("device-user")).toBe("device-user.creds");
    expect(credsFileName("Ana's laptop / 2")).toBe("Ana-s-laptop-2.creds");
    expect(credsFileName("../..")).toBe("bus-identity.creds");
  });

  it("says each refusal of the rotate route in words, with the server's message", () => {
    expect(rotationRefusal(refused(403, "the linked bus identity is suspended"))).toBe(
      "Your bus identity is suspended, so its credential cannot be rotated. An owner or admin of this organization can reactivate it (the linked bus identity is suspended).",
    );
    expect(rotationRefusal(refused(404, "no bus identity is linked"))).toContain("No bus identity is linked");
    expect(rotationRefusal(refused(400, "no active organization"))).toContain("Choose an organization first");
    expect(rotationRefusal(refused(500, "boom"))).toBe("boom");
  });
});
