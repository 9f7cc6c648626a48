import { describe, expect, it } from "vitest";
import {
  nonBooleanFlag,
  MAX_BODY_BYTES,
  isJsonMediaType,
  isObject,
  oneOfStrings,
  optionalObject,
  optionalString,
  parseJsonObject,
  parseJsonRequest,
  requiredString,
} from "./body";
import { RouteError } from "./errors";

/** The RouteError `work` throws, as {status, message}. */
function refusal(work: () => unknown): { status: number; message: string } {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(RouteError);
    const { status, message } = err as RouteError;
    return { status, message };
  }
  throw new Error("expected a RouteError");
}

describe("parseJsonObject", () => {
  it("returns a JSON object", () => {
    expect(parseJsonObject(' { "token": "abc", "n": 1 } ', false)).toEqual({ token: "abc", n: 1 });
  });

  it.each([
    ["an array", "[1]", "request body must be a JSON object"],
    ["an empty array", "[]", "request body must be a JSON object"],
    ["a string", '"x"', "request body must be a JSON object"],
    ["a number", "42", "request body must be a JSON object"],
    ["null", "null", "request body must be a JSON object"],
    ["malformed JSON", '{"a":', "request body is not valid JSON"],
    ["trailing garbage", "{} x", "request body is not valid JSON"],
    ["an empty body", "", "request body must be a JSON object"],
    ["whitespace", " \n ", "request body must be a JSON object"],
  ])("refuses %s with a 400", (_, text, message) => {
    expect(refusal(() => parseJsonObject(text, false))).toEqual({ status: 400, message });
  });

  it("treats a blank body as {} where allowed", () => {
    expect(parseJsonObject("", true)).toEqual({});
    expect(parseJsonObject("  ", true)).toEqual({});
    expect(refusal(() => parseJsonObject("[]", true)).status).toBe(400);
  });

  it("refuses a body over the limit with a 413 before parsing", () => {
    const big = JSON.stringify({ pad: "x".repeat(MAX_BODY_BYTES) });
    expect(refusal(() => parseJsonObject(big, false))).toEqual({ status: 413, message: `request body exceeds ${MAX_BODY_BYTES} bytes` });
  });
});

describe("parseJsonRequest", () => {
  it("parses a JSON body declared as JSON", () => {
    expect(parseJsonRequest("application/json", '{"a":1}', false)).toEqual({ a: 1 });
    expect(parseJsonRequest("Application/JSON; charset=UTF-8", '{"a":1}', false)).toEqual({ a: 1 });
  });

  it.each(["", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"])(
    "refuses a non-blank body declared as %j with a 415",
    (type) => {
      expect(refusal(() => parseJsonRequest(type, '{"a":1}', false))).toEqual({
        status: 415,
        message: "request body must be JSON sent with Content-Type: application/json",
      });
    },
  );

  it("does not care about the media type of a blank body", () => {
    expect(parseJsonRequest("", "", true)).toEqual({});
    expect(parseJsonRequest("text/plain", " ", true)).toEqual({});
    expect(refusal(() => parseJsonRequest("", "", false))).toEqual({ status: 400, message: "request body must be a JSON object" });
  });

  it("checks the size in bytes first, whatever the media type", () => {
    expect(refusal(() => parseJsonRequest("text/plain", "x".repeat(MAX_BODY_BYTES + 1), false)).status).toBe(413);
    // Short in characters, long in bytes.
    expect(refusal(() => parseJsonRequest("application/json", '{"a":"é"}', false, MAX_BODY_BYTES + 1)).status).toBe(413);
    expect(parseJsonRequest("application/json", '{"a":"é"}', false, MAX_BODY_BYTES)).toEqual({ a: "é" });
  });
});

describe("isJsonMediaType", () => {
  it.each([
    ["application/json", true],
    ["application/json;charset=utf-8", true],
    [" APPLICATION/JSON ", true],
    ["application/merge-patch+json", true],
    ["application/vnd.api+json; charset=utf-8", true],
    ["", false],
    ["text/json", false],
    ["application/jsonx", false],
    ["application/+json", false],
    ["text/plain; application/json", false],
  ])("%j → %s", (type, expected) => {
    expect(isJsonMediaType(type)).toBe(expected);
  });
});

describe("field readers", () => {
  it("isObject accepts plain objects only", () => {
    expect([{}, { a: 1 }].map(isObject)).toEqual([true, true]);
    expect([null, [], "x", 1, true, undefined].map(isObject)).toEqual([false, false, false, false, false, false]);
  });

  it("optionalString trims, maps absent and null to blank, refuses other types naming the path", () => {
    expect(optionalString({ a: "  x " }, "a")).toBe("x");
    expect(optionalString({}, "a")).toBe("");
    expect(optionalString({ a: null }, "a")).toBe("");
    for (const value of [1, true, {}, [], ["x"]]) {
      expect(refusal(() => optionalString({ a: value }, "a", "block.a"))).toEqual({ status: 400, message: "block.a must be a string" });
    }
  });

  it("requiredString refuses absent, null and blank values", () => {
    expect(requiredString({ name: " n " }, "name")).toBe("n");
    for (const body of [{}, { name: null }, { name: "" }, { name: " \t" }]) {
      expect(refusal(() => requiredString(body, "name"))).toEqual({ status: 400, message: "name is required" });
    }
    expect(refusal(() => requiredString({ name: 3 }, "name"))).toEqual({ status: 400, message: "name must be a string" });
  });

  it("optionalObject maps absent and null to undefined and refuses non-objects", () => {
    expect(optionalObject({ bus: { mode: "none" } }, "bus")).toEqual({ mode: "none" });
    expect(optionalObject({}, "bus")).toBeUndefined();
    expect(optionalObject({ bus: null }, "bus")).toBeUndefined();
    for (const value of ["x", 1, [], true]) {
      expect(refusal(() => optionalObject({ bus: value }, "bus"))).toEqual({ status: 400, message: "bus must be an object" });
    }
  });

  it("oneOfStrings allows exactly the listed values", () => {
    expect(oneOfStrings("b", ["a", "b"] as const, "mode")).toBe("b");
    expect(refusal(() => oneOfStrings("B", ["a", "b"] as const, "x.mode"))).toEqual({ status: 400, message: "x.mode must be one of a, b" });
  });
});

describe("nonBooleanFlag", () => {
  it("names the first bool field set to anything but a boolean", () => {
    expect(nonBooleanFlag(["active", "public"], { active: true, public: false, name: "x" })).toBeUndefined();
    expect(nonBooleanFlag(["active"], { active: "true" })).toBeUndefined();
    expect(nonBooleanFlag(["active"], { name: "yes" })).toBeUndefined();
    for (const value of ["yes", "", 1, 0, null, [], {}]) expect(nonBooleanFlag(["public", "active"], { active: value }), JSON.stringify(value)).toBe("active");
  });
});
