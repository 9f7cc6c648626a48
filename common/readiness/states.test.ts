import { describe, expect, it } from "vitest";
import { CHECK_STATES, httpStatus, worstState } from "./states";

describe("worstState", () => {
  it("ranks fail > warn > ok > skipped", () => {
    expect(worstState(["ok", "fail", "warn", "skipped"])).toBe("fail");
    expect(worstState(["ok", "warn", "skipped"])).toBe("warn");
    expect(worstState(["skipped", "ok", "skipped"])).toBe("ok");
  });

  it("is computed from the results, not seeded from ok", () => {
    expect(worstState(["skipped", "skipped"])).toBe("skipped");
    expect(worstState(["skipped"])).toBe("skipped");
  });

  it("is skipped for an empty list", () => {
    expect(worstState([])).toBe("skipped");
  });

  it("does not depend on order", () => {
    expect(worstState(["fail", "ok"])).toBe("fail");
    expect(worstState(["warn", "ok"])).toBe("warn");
  });
});

describe("httpStatus", () => {
  it("is 503 for fail and 200 for every other state", () => {
    expect(CHECK_STATES.map(httpStatus)).toEqual([200, 200, 503, 200]);
    expect(httpStatus("skipped")).toBe(200);
    expect(httpStatus("warn")).toBe(200);
  });
});
