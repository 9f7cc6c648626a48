import { describe, expect, it } from "vitest";
import { combinedOutcome, hubUplinkCheck, leafConfigOutcome } from "./checks";
import type { LeafState } from "./leaf-process";
import type { UplinkStatus } from "./uplink";

const running: LeafState = { running: true, pid: 42, since: 0 };
const uplink = (status: UplinkStatus) => hubUplinkCheck({ state: () => running }, { status: () => status }, () => "nats-leaf://hub:7422").run();

describe("gateway checks", () => {
  it("hub_uplink warns, never fails, when islanded, and names the remedy tried", async () => {
    const islanded = await uplink({ known: true, connected: false, since: 0, remedy: { kind: "restart", at: 1_000 }, hubPortAccepts: true });
    expect(islanded.state).toBe("warn");
    expect(islanded.detail).toContain("islanded");
    expect(islanded.detail).toContain("leaf restarted at 1970-01-01T00:00:01.000Z");
    expect((await uplink({ known: true, connected: true, since: 0 })).state).toBe("ok");
    const leafDown = await hubUplinkCheck({ state: () => ({ running: false, reason: "x", since: 0 }) }, { status: () => ({ known: false, reason: "" }) }, () => undefined).run();
    expect(leafDown).toMatchObject({ state: "skipped", detail: expect.stringContaining("bus_local") });
  });
  it("sync: a changed hub identity warns with the reconfigure command; a refused Thing warns; an unreachable platform does not", () => {
    const drift = leafConfigOutcome({ lastSuccessAt: 0, drift: ["operator_jwt"] }, "agent gateway reconfigure");
    expect(drift).toMatchObject({ state: "warn", fix: expect.stringContaining("agent gateway reconfigure") });
    expect(drift.detail).toContain("operator_jwt");
    expect(leafConfigOutcome({ lastSuccessAt: 0, drift: [], failure: { status: 401, message: "401 unauthorized", at: 5 } }, "c").state).toBe("warn");
    expect(leafConfigOutcome({ lastSuccessAt: 0, drift: [], failure: { status: 0, message: "unreachable", at: 5 } }, "c").state).toBe("ok");
    // An answer the agent cannot use (a control plane without bus.leaf_url) is no network gap: it warns.
    const unusable = leafConfigOutcome({ lastSuccessAt: 0, drift: [], failure: { status: 200, message: "GET /api/me/leaf-config: the answer has no hub_leaf_url", at: 5 } }, "c");
    expect(unusable).toMatchObject({ state: "warn", fix: expect.stringContaining("bus.leaf_url (PLATFORM_BUS_LEAF_URL)") });
    expect(unusable.detail).toMatch(/^the platform's leaf configuration cannot be used \(.*no hub_leaf_url\): revocations and suspensions decided at the hub since .* do not reach this site$/);
    // Never read: nothing runs "on the last one applied".
    expect(leafConfigOutcome({ drift: [], failure: { status: 0, message: "unreachable", at: 5 } }, "c")).toEqual({ state: "skipped", detail: "the leaf configuration could not be read yet (unreachable)" });
    expect(leafConfigOutcome({ drift: [] }, "c").state).toBe("skipped");
  });
  it("sync of several parts: the worst state with the details of the parts in it", () => {
    expect(combinedOutcome([{ state: "ok", detail: "leaf" }, { state: "warn", detail: "bucket a", fix: "f" }])).toEqual({ state: "warn", detail: "bucket a", fix: "f" });
    expect(combinedOutcome([{ state: "ok", detail: "leaf" }, { state: "ok", detail: "kv" }])).toEqual({ state: "ok", detail: "leaf; kv", fix: undefined });
  });
});
