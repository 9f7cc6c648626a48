import { describe, expect, it } from "vitest";
import { acceptLink, placeOf, safeNext, signInPath } from "./routes";

describe("console paths", () => {
  it("maps paths to places", () => {
    expect(placeOf("/")).toEqual({ kind: "home" });
    expect(placeOf("/things")).toEqual({ kind: "screen", screen: "things" });
    expect(placeOf("/things/")).toEqual({ kind: "screen", screen: "things" });
    expect(placeOf("/signin")).toEqual({ kind: "signin" });
    expect(placeOf("/accept")).toEqual({ kind: "accept" });
    expect(placeOf("/nope")).toEqual({ kind: "unknown" });
  });

  it("builds an invitation's link on the console's origin, the token escaped", () => {
    expect(acceptLink("https://fleet.example", "aB9")).toBe("https://fleet.example/accept?token=aB9");
    expect(acceptLink("http://127.0.0.1:8090", "a+b/c")).toBe("http://127.0.0.1:8090/accept?token=a%2Bb%2Fc");
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
