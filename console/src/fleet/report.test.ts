import { describe, expect, it } from "vitest";
import { fleetReport, type FleetInputs, type FleetThing } from "./report";

const NOW = Date.parse("2026-11-29T12:00:00Z");
const thing = (n: number, extra: Partial<FleetThing> = {}): FleetThing => ({ id: `t${n}`, name: `Site ${n}`, code: `S-${n}`, active: true, bus_user: `u${n}`, overlay_host: "", ...extra });
const jwt = (iat: number, exp: number) => `e30.${btoa(JSON.stringify({ iat, exp }))}.sig`;

function inputs(overrides: Partial<FleetInputs> = {}): FleetInputs {
  const things = [thing(1), thing(2), thing(3), thing(4, { bus_user: "", overlay_host: "h4" })];
  const iat = NOW / 1000 - 20 * 86_400;
  return {
    things,
    busUsers: [1, 2, 3].map((n) => ({ id: `u${n}`, name: `user ${n}`, active: n !== 3, public_key: `UKEY${n}`, expires: n === 2 ? iat + 30 * 86_400 : NOW / 1000 + 20 * 86_400, jwt: jwt(iat, n === 2 ? iat + 30 * 86_400 : iat + 40 * 86_400) })),
    hosts: [{ id: "h4", name: "host 4", active: true, not_after: new Date(NOW + 10 * 86_400_000).toISOString() }],
    ca: { not_after: new Date(NOW + 365 * 86_400_000).toISOString(), next_not_after: "" },
    accountJwt: "x".repeat(2048),
    connections: { leaf: new Set(["UKEY1"]), client: new Set(["UKEY2"]) },
    heard: new Map([["S-1", NOW - 5_000], ["S-2", NOW - 60_000]]),
    listeningSince: NOW - 120_000,
    quietAfterMs: 45_000,
    now: NOW,
    ...overrides,
  };
}

describe("fleet report", () => {
  it("classifies sites, quiet devices and what expires within its window", () => {
    const report = fleetReport(inputs());
    expect(report.siteCounts).toEqual({ attached: 1, direct: 1, islanded: 1, unknown: 0 });
    expect(report.withoutBusIdentity).toBe(1);
    // S-2 heard a minute ago, S-3 never since listening began two minutes ago: both quiet, the longest silence first.
    expect(report.quiet.map((r) => r.thing.code)).toEqual(["S-3", "S-2"]);
    // user 2 has 10 of 30 days left (renewal overdue); user 3 is suspended (not renewed on purpose); host 4 within 30 days.
    expect(report.expiring.map((r) => [r.thing.code, r.what, r.standing])).toEqual([
      ["S-2", "bus credential", "expiring"],
      ["S-4", "overlay certificate", "expiring"],
    ]);
    expect(report.ca).toBe("ok");
    expect(report.claim?.bytes).toBe(2048);
  });

  it("what the role cannot read is unknown, stated, never islanded or in date", () => {
    const report = fleetReport(inputs({ busUsers: null, hosts: null }));
    expect(report.siteCounts).toEqual({ attached: 0, direct: 0, islanded: 0, unknown: 3 });
    expect([report.keysReadable, report.hostsReadable, report.expiring]).toEqual([false, false, []]);
  });

  it("without a hub answer or a bus connection, sites and beats are unknown", () => {
    const report = fleetReport(inputs({ connections: null, heard: new Map(), listeningSince: null }));
    expect(report.siteCounts.unknown).toBe(3);
    expect(report.beatCounts).toEqual({ recent: 0, quiet: 0, "not-heard-yet": 0, unknown: 3 });
  });
});
