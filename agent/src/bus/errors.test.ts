import { describe, expect, it } from "vitest";
import { classifyBusError } from "./errors";

describe("classifyBusError", () => {
  it.each([
    "Authorization Violation",
    "User Authentication Revoked",
    "user authentication expired",
    "Account Authentication Expired",
    "account disabled",
  ])("reads %s from the hub as an authorization failure", (text) => {
    expect(classifyBusError(new Error(text))).toEqual({ kind: "authorization", reason: text });
  });

  it("reads a refused socket, also when the code sits on the cause", () => {
    const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    expect(classifyBusError(socket)).toEqual({ kind: "refused", reason: "connection refused" });
    expect(classifyBusError(new Error("wrapped", { cause: socket }))).toEqual({ kind: "refused", reason: "connection refused" });
  });

  it("reads timeouts and keeps anything else as it is", () => {
    expect(classifyBusError(new Error("dial timed out after 5 ms")).kind).toBe("timeout");
    expect(classifyBusError(Object.assign(new Error("x"), { name: "TimeoutError", message: "timeout" })).kind).toBe("timeout");
    expect(classifyBusError("weird")).toEqual({ kind: "other", reason: "weird" });
  });
});
