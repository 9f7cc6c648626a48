import { describe, expect, it } from "vitest";
import { graceAfterReload, remedyDue } from "./uplink-remedy";

describe("the uplink remedy", () => {
  const T = 300_000;
  const grace = graceAfterReload(T);
  it("waits the whole absence, then reloads once", () => {
    expect(remedyDue(T - 1, { downSince: 0 }, T, grace)).toBeUndefined();
    expect(remedyDue(T, { downSince: 0 }, T, grace)).toBe("reload");
  });
  it("restarts when the reload brought nothing within the grace (a minute at most)", () => {
    expect(grace).toBe(60_000);
    expect(remedyDue(T + grace - 1, { downSince: 0, reloadedAt: T }, T, grace)).toBeUndefined();
    expect(remedyDue(T + grace, { downSince: 0, reloadedAt: T }, T, grace)).toBe("restart");
  });
  it("a short absence setting gives a short grace", () => expect(graceAfterReload(5_000)).toBe(5_000));
});
