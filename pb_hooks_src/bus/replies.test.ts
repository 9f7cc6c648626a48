import { describe, expect, it } from "vitest";
import { parseClaimsReply } from "./replies";

describe("parseClaimsReply", () => {
  it("reads a confirmation", () => {
    expect(parseClaimsReply(`{"server":{},"data":{"code":200,"account":"A","message":"jwt updated"}}`)).toEqual({ ok: true, message: "jwt updated" });
  });
  it("reads a refusal", () => {
    expect(parseClaimsReply(`{"error":{"code":500,"description":"not trusted"}}`)).toEqual({ ok: false, message: "not trusted" });
  });
  it("treats garbage as unconfirmed", () => {
    expect(parseClaimsReply("nope").ok).toBe(false);
  });
});
