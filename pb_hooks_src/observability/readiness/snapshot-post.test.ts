import { describe, expect, it } from "vitest";
import { RouteError } from "../../lib/errors";
import { parseSnapshotPost } from "./snapshot-post";

const NAMES = ["database", "schema", "bus_reachable"];

const result = (name: string, extra: Record<string, unknown> = {}) => ({ name, state: "ok", tookMs: 2, ...extra });
const allResults = () => NAMES.map((name) => result(name));

/** The RouteError parseSnapshotPost throws for `value`. */
function refusal(value: unknown): RouteError {
  try {
    parseSnapshotPost(value, NAMES);
  } catch (err) {
    expect(err).toBeInstanceOf(RouteError);
    expect((err as RouteError).status).toBe(400);
    return err as RouteError;
  }
  throw new Error("expected a RouteError");
}

describe("parseSnapshotPost", () => {
  it("accepts each check name exactly once, in any order", () => {
    const results = [result("schema"), result("bus_reachable"), result("database")];
    expect(parseSnapshotPost({ results, tookMs: 12 }, NAMES)).toEqual({ results, tookMs: 12 });
  });

  it("keeps the order in which the results were posted", () => {
    const results = [result("schema"), result("bus_reachable"), result("database")];
    expect(parseSnapshotPost({ results, tookMs: 1 }, NAMES).results.map((r) => r.name)).toEqual(["schema", "bus_reachable", "database"]);
  });

  it("accepts a tookMs of zero", () => {
    expect(parseSnapshotPost({ results: allResults(), tookMs: 0 }, NAMES).tookMs).toBe(0);
  });

  it("accepts every one of the four states", () => {
    const results = [result("database", { state: "warn", detail: "d", fix: "f" }), result("schema", { state: "fail", detail: "d", fix: "f" }), result("bus_reachable", { state: "skipped", detail: "d", fix: "f" })];
    expect(parseSnapshotPost({ results, tookMs: 1 }, NAMES).results.map((r) => r.state)).toEqual(["warn", "fail", "skipped"]);
  });

  it("keeps detail and fix when present", () => {
    const results = [result("database", { state: "warn", detail: "slow disk", fix: "move it" }), result("schema"), result("bus_reachable")];
    expect(parseSnapshotPost({ results, tookMs: 1 }, NAMES).results[0]).toStrictEqual({ name: "database", state: "warn", detail: "slow disk", fix: "move it", tookMs: 2 });
  });

  it("adds no detail or fix key when they are absent", () => {
    const parsed = parseSnapshotPost({ results: allResults(), tookMs: 1 }, NAMES).results[0];
    expect(parsed).toStrictEqual({ name: "database", state: "ok", tookMs: 2 });
    expect(Object.keys(parsed)).toEqual(["name", "state", "tookMs"]);
  });

  it("drops fields a result should not carry", () => {
    const results = [result("database", { stack: "at x.js:1" }), result("schema"), result("bus_reachable")];
    expect(parseSnapshotPost({ results, tookMs: 1 }, NAMES).results[0]).not.toHaveProperty("stack");
  });

  it("refuses a missing check name", () => {
    expect(refusal({ results: [result("database"), result("schema")], tookMs: 1 }).message).toBe("results must hold each of database, schema, bus_reachable exactly once");
  });

  it("refuses a duplicated check name, even with the right count", () => {
    expect(refusal({ results: [result("database"), result("database"), result("schema")], tookMs: 1 }).message).toContain("exactly once");
  });

  it("refuses an extra check name", () => {
    expect(refusal({ results: [...allResults(), result("bootstrap")], tookMs: 1 }).message).toContain("exactly once");
  });

  it("refuses an unknown name in place of a known one", () => {
    expect(refusal({ results: [result("database"), result("schema"), result("bus_trust")], tookMs: 1 }).message).toContain("exactly once");
  });

  it("refuses an empty results list", () => {
    expect(refusal({ results: [], tookMs: 1 }).message).toContain("exactly once");
  });

  it("refuses a state outside the four", () => {
    const results = [result("database", { state: "unprobed" }), result("schema"), result("bus_reachable")];
    expect(refusal({ results, tookMs: 1 }).message).toContain("state (ok, warn, fail, skipped)");
  });

  it("refuses a result without a state", () => {
    const results = [result("database", { state: undefined }), result("schema"), result("bus_reachable")];
    refusal({ results, tookMs: 1 });
  });

  it("refuses a result without tookMs", () => {
    const results = [result("database", { tookMs: undefined }), result("schema"), result("bus_reachable")];
    refusal({ results, tookMs: 1 });
  });

  it("refuses a result whose name is not a string", () => {
    const results = [result("database", { name: 7 }), result("schema"), result("bus_reachable")];
    refusal({ results, tookMs: 1 });
  });

  it("refuses a detail or fix that is not a string", () => {
    refusal({ results: [result("database", { detail: 5 }), result("schema"), result("bus_reachable")], tookMs: 1 });
    refusal({ results: [result("database", { fix: null }), result("schema"), result("bus_reachable")], tookMs: 1 });
  });

  it("refuses a result that is null", () => {
    refusal({ results: [null, result("schema"), result("bus_reachable")], tookMs: 1 });
  });

  it("refuses a missing tookMs", () => {
    expect(refusal({ results: allResults() }).message).toBe("tookMs must be a duration in milliseconds");
  });

  it("refuses a negative tookMs", () => {
    expect(refusal({ results: allResults(), tookMs: -1 }).message).toBe("tookMs must be a duration in milliseconds");
  });

  it("refuses a tookMs that is not a finite number", () => {
    expect(refusal({ results: allResults(), tookMs: "12" }).message).toBe("tookMs must be a duration in milliseconds");
    expect(refusal({ results: allResults(), tookMs: Number.POSITIVE_INFINITY }).message).toBe("tookMs must be a duration in milliseconds");
  });

  it("refuses results that are not an array", () => {
    expect(refusal({ results: { database: result("database") }, tookMs: 1 }).message).toBe("results must be an array");
  });

  it("refuses a body that is null", () => {
    refusal(null);
  });
});
