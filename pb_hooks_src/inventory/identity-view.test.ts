import { describe, expect, it } from "vitest";
import { RouteError } from "../lib/errors";
import { parseInclude } from "./identity-view";

describe("parseInclude", () => {
  it("reads none, one or both fields", () => {
    expect([...parseInclude("")]).toEqual([]);
    expect([...parseInclude("creds_file")]).toEqual(["creds_file"]);
    expect([...parseInclude(" config_yaml , creds_file,")]).toEqual(["config_yaml", "creds_file"]);
  });

  it("refuses any other field with a 400", () => {
    for (const text of ["seed", "creds_file,private_key", "*"]) {
      expect(() => parseInclude(text)).toThrow(RouteError);
      try {
        parseInclude(text);
      } catch (err) {
        expect((err as RouteError).status).toBe(400);
      }
    }
  });
});
