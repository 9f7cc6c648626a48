import { describe, expect, it } from "vitest";
import { judge, platformSyncCheck } from "./check";
import type { SyncStatus } from "./sync";

const DAY = 86_400_000;
const NOW = 1_800_000_000_000;
const INTERVAL = 60_000;
const base: SyncStatus = {
  startedAt: NOW - 10 * INTERVAL,
  lastSuccessAt: NOW - 30_000,
  consecutiveFailures: 0,
  tokenExpiresAt: NOW + 6 * DAY,
  platform: "https://pf.example",
  email: "TH-1@org.thing.local",
};
const failing = (kind: "unreachable" | "unauthorized" | "error", status: number, count: number, lastSuccessAt?: number): SyncStatus => ({
  ...base,
  lastSuccessAt,
  consecutiveFailures: count,
  lastFailure: { kind, status, message: "platform https://pf.example unreachable: ECONNREFUSED", at: NOW },
});

describe("platform_sync", () => {
  it("is ok after a recent sync, and before the first one while the start is recent", () => {
    expect(judge(base, INTERVAL, NOW)).toEqual({ state: "ok", detail: "last sync 30s ago" });
    expect(judge({ ...base, lastSuccessAt: undefined, startedAt: NOW - 1000 }, INTERVAL, NOW)).toEqual({ state: "ok", detail: "first sync pending" });
  });

  it("warns at once on a 401 with the re-enroll command in fix", () => {
    const outcome = judge(failing("unauthorized", 401, 1, NOW - 61_000), INTERVAL, NOW);
    expect(outcome.state).toBe("warn");
    expect(outcome.fix).toContain("agent enroll --platform https://pf.example --email TH-1@org.thing.local");
  });

  it("tolerates failures for three intervals, then warns with the cause", () => {
    expect(judge(failing("unreachable", 0, 2, NOW - 2 * INTERVAL), INTERVAL, NOW).state).toBe("ok");
    const stale = judge(failing("unreachable", 0, 4, NOW - 4 * INTERVAL), INTERVAL, NOW);
    expect(stale).toMatchObject({ state: "warn", detail: expect.stringContaining("last sync 4m0s ago; 4 attempts failed: platform https://pf.example unreachable") });
    expect(judge(failing("unreachable", 0, 4), INTERVAL, NOW).detail).toContain("no sync since start");
  });

  it("warns when the token is within a day of expiry, and once it has expired", () => {
    expect(judge({ ...base, tokenExpiresAt: NOW + DAY - 1000 }, INTERVAL, NOW)).toMatchObject({ state: "warn", detail: "the Thing's session expires in 23h59m59s" });
    expect(judge({ ...base, tokenExpiresAt: NOW - 1 }, INTERVAL, NOW)).toMatchObject({ state: "warn", detail: "the Thing's session has expired" });
  });

  it("warns on a suspended bus identity or overlay host", () => {
    expect(judge({ ...base, busUserActive: false }, INTERVAL, NOW).detail).toContain("bus identity is suspended");
    expect(judge({ ...base, busUserActive: true, overlayHostActive: false }, INTERVAL, NOW).detail).toContain("overlay host is deactivated");
  });

  it("is skipped when the creds are configured outside the platform", async () => {
    const check = platformSyncCheck({ status: "external", intervalMs: INTERVAL });
    expect(check.name).toBe("platform_sync");
    expect((await check.run()).state).toBe("skipped");
  });

  it("warns with the enroll command before the agent is enrolled", async () => {
    const outcome = await platformSyncCheck({ status: () => "not-enrolled", intervalMs: INTERVAL }).run();
    expect(outcome.state).toBe("warn");
    expect(outcome.fix).toContain("agent enroll --platform");
  });
});
