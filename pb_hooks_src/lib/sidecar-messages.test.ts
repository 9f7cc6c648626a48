import { describe, expect, it } from "vitest";
import {
  SidecarError,
  SidecarUnavailableError,
  deliveryFailure,
  isExecutableMissing,
  isZombieStat,
  lastLines,
  parseState,
  readAnswer,
  reasonOf,
} from "./sidecar-messages";

describe("sidecar client messages", () => {
  it("reads a complete state file only", () => {
    expect(parseState(undefined)).toBeUndefined();
    expect(parseState("")).toBeUndefined();
    expect(parseState('{"port": 12')).toBeUndefined();
    expect(parseState('{"port": 1234}')).toBeUndefined();
    expect(parseState('{"port": 1234, "pid": 42}')).toEqual({ port: 1234, pid: 42 });
    expect(parseState('{"error": "cannot listen"}')).toEqual({ error: "cannot listen" });
  });

  it("parses a success and turns an error answer into a SidecarError with the sidecar's message", () => {
    expect(readAnswer<{ jwt: string }>("/v1/jwt", 200, '{"jwt":"x"}')).toEqual({ jwt: "x" });
    const error = (() => {
      try {
        readAnswer("/v1/jwt", 400, '{"error":"seed is not a valid nkey seed"}');
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(SidecarError);
    expect(error).toMatchObject({ status: 400, path: "/v1/jwt", message: "sidecar /v1/jwt: seed is not a valid nkey seed" });
    expect(() => readAnswer("/v1/jwt", 502, "<html>")).toThrow(SidecarUnavailableError);
    expect(() => readAnswer("/v1/jwt", 500, "{}")).toThrow("sidecar /v1/jwt: HTTP 500");
  });

  it("classifies Go's error texts", () => {
    expect(deliveryFailure('Post "http://127.0.0.1:4/v1/jwt": dial tcp 127.0.0.1:4: connect: connection refused')).toBe("refused");
    expect(deliveryFailure('Get "http://127.0.0.1:4/v1/health": read tcp 127.0.0.1:5->127.0.0.1:4: read: connection reset by peer')).toBe("broken");
    expect(deliveryFailure('Post "http://127.0.0.1:4/v1/jwt": EOF')).toBe("broken");
    expect(deliveryFailure('Post "http://127.0.0.1:4/v1/jwt": context deadline exceeded (Client.Timeout exceeded while awaiting headers)')).toBeUndefined();
    expect(isExecutableMissing('exec: "node": executable file not found in $PATH')).toBe(true);
    expect(new SidecarUnavailableError("x").message).toBe("the platform sidecar is not available: x");
    expect(reasonOf(new SidecarUnavailableError("x"))).toBe("x");
    expect(reasonOf(new Error("y"))).toBe("y");
  });

  it("recognises an exited, unreaped process in /proc/<pid>/stat", () => {
    expect(isZombieStat("4242 (node) Z 4200 4242 4200 0 -1")).toBe(true);
    expect(isZombieStat("4242 (my (odd) name) S 4200 4242")).toBe(false);
    expect(isZombieStat("4242 (my (odd) name) Z 4200 4242")).toBe(true);
    expect(isZombieStat(undefined)).toBe(false);
  });

  it("keeps the last lines of the sidecar's output", () => {
    expect(lastLines("a\n\nb\nc\nd\n")).toBe("b | c | d");
    expect(lastLines("")).toBe("");
  });
});
