import { describe, expect, it } from "vitest";
import { placeOf, safeNext, signInPath } from "./routes";

describe("console paths", () => {
  it("maps paths to places", () => {
    expect(placeOf("/")).toEqual({ kind: "home" });
    expect(placeOf("/things")).toEqual({ kind: "screen", screen: "things" });
    expect(placeOf("/things/")).toEqual({ kind: "screen", screen: "things" });
    expect(placeOf("/signin")).toEqual({ kind: "signin" });
    expect(placeOf("/nope")).toEqual({ kind: "unknown" });
  });

  it("follows only paths of this origin after sign-in", () => {
    expect(safeNext("/things?page=2")).toBe("/things?page=2");
    for (const bad of [null, "", "things", "//evil.example/x", "/\\evil.example", "https://evil.example/"]) expect(safeNext(bad)).toBeNull();
  });

  it("sends a 401 to sign-in with the interrupted screen, never to sign-in itself", () => {
    expect(signInPath("/locations?x=1")).toBe("/signin?next=%2Flocations%3Fx%3D1");
    expect(signInPath("/signin?next=%2Fthings")).toBe("/signin");
    expect(signInPath("//evil.example")).toBe("/signin");
    expect(signInPath("/")).toBe("/signin");
  });
});
