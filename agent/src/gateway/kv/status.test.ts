import { describe, expect, it } from "vitest";
import { syncOutcome } from "./status";

describe("syncOutcome", () => {
  it("skips when no bucket is declared", () => {
    expect(syncOutcome([], true).state).toBe("skipped");
  });
  it("is ok when every bucket syncs with no backlog", () => {
    expect(syncOutcome([{ bucket: "cfg", direction: "hub_to_site", syncing: true }, { bucket: "orders", direction: "site_to_hub", syncing: true, pending: 0 }], true)).toEqual({ state: "ok", detail: "2 bucket(s) syncing" });
  });
  it("warns naming the bucket when one is not syncing or a relay has a backlog", () => {
    const outcome = syncOutcome(
      [
        { bucket: "cfg", direction: "hub_to_site", syncing: false, reason: "waiting for the hub bucket" },
        { bucket: "orders", direction: "site_to_hub", syncing: true, pending: 3, backlogAgeMs: 10_000 },
      ],
      true,
    );
    expect(outcome.state).toBe("warn");
    expect(outcome.detail).toBe("mirror cfg: not syncing: waiting for the hub bucket; relay orders: 3 key(s) pending");
  });
  it("treats a young backlog of a syncing relay as keys in flight, and still counts it when something else is wrong", () => {
    expect(syncOutcome([{ bucket: "orders", direction: "site_to_hub", syncing: true, pending: 3, backlogAgeMs: 9_999 }], true).state).toBe("ok");
    expect(syncOutcome([{ bucket: "orders", direction: "site_to_hub", syncing: false, reason: "islanded", pending: 3, backlogAgeMs: 1 }], true).detail).toBe("relay orders: not syncing: islanded, 3 key(s) pending");
  });
  it("names the missing local connection as the cause", () => {
    expect(syncOutcome([{ bucket: "cfg", direction: "hub_to_site", syncing: false, reason: "not connected" }], false).detail).toMatch(/^the agent is not connected to the local leaf \(see bus\); mirror cfg/);
  });
});
