import { describe, expect, it } from "vitest";
import { acceptedEncodings, assetOf } from "./assets";

describe("assetOf", () => {
  it("names a built script or stylesheet with its content type", () => {
    expect(assetOf("assets/index-DkDBFZPe.js")).toEqual({ path: "assets/index-DkDBFZPe.js", contentType: "text/javascript; charset=utf-8" });
    expect(assetOf("assets/busy.svelte-CBmJ6hT8.js")?.path).toBe("assets/busy.svelte-CBmJ6hT8.js");
    expect(assetOf("assets/index-DkeOBA30.css")?.contentType).toBe("text/css; charset=utf-8");
  });
  it("is nothing else: pages, other types, nested or escaping paths, the compressed files themselves", () => {
    for (const path of ["", "index.html", "signin", "assets/", "assets/logo.svg", "assets/a/b.js", "assets/../index.js",
      "assets/..js", "assets/.hidden.js", "assets/x.js.br", "assets/x.js.gz", "other/x.js", "/assets/x.js"]) {
      expect(assetOf(path), path).toBeUndefined();
    }
  });
});

describe("acceptedEncodings", () => {
  it("lists what the build writes, brotli first, whatever the header's order", () => {
    expect(acceptedEncodings("gzip, deflate, br, zstd")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("gzip, deflate")).toEqual(["gzip"]);
    expect(acceptedEncodings("BR")).toEqual(["br"]);
  });
  it("is empty without a header or without a coding the build writes", () => {
    expect(acceptedEncodings("")).toEqual([]);
    expect(acceptedEncodings("identity")).toEqual([]);
    expect(acceptedEncodings("deflate, zstd")).toEqual([]);
  });
  it("refuses a coding with q=0 and reads * as every coding not named", () => {
    expect(acceptedEncodings("br;q=0, gzip;q=0.5")).toEqual(["gzip"]);
    expect(acceptedEncodings("gzip; q=0")).toEqual([]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("*;q=0, gzip")).toEqual(["gzip"]);
  });
});
