import { describe, expect, it } from "vitest";
import { REFRESH_AFTER_MS } from "./sync";
import { jitteredDelay, POLL_JITTER, REFRESH_SPREAD_MS, refreshAgeOf } from "./spread";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const FLEET = 100_000;

/** A deterministic source in [0, 1) (mulberry32), so the simulated fleet is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** PocketBase record ids: 15 characters of [a-z0-9]. */
function recordId(random: () => number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: 15 }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
}

/** The busiest minute's count and how many minutes had any, of moments in ms. */
function perMinute(moments: readonly number[]): { busiest: number; spanHours: number } {
  const counts = new Map<number, number>();
  for (const at of moments) counts.set(Math.floor(at / MINUTE), (counts.get(Math.floor(at / MINUTE)) ?? 0) + 1);
  const minutes = [...counts.keys()];
  return { busiest: Math.max(...counts.values()), spanHours: (Math.max(...minutes) - Math.min(...minutes) + 1) / 60 };
}

describe("spreading a fleet's requests", () => {
  it("100,000 Things enrolled within one hour refresh their tokens over more than 24 hours, at most 120 in any minute", () => {
    const random = seeded(37);
    const refreshes: number[] = [];
    for (let i = 0; i < FLEET; i++) {
      const enrolledAt = random() * HOUR;
      refreshes.push(enrolledAt + refreshAgeOf(recordId(random), REFRESH_AFTER_MS));
    }
    const { busiest, spanHours } = perMinute(refreshes);
    console.info(`${FLEET} enrollments in 1 h -> token refreshes over ${spanHours.toFixed(1)} h, busiest minute ${busiest} (without spread: ~${Math.round(FLEET / 60)})`);
    expect(spanHours).toBeGreaterThanOrEqual(24);
    expect(busiest).toBeLessThanOrEqual(120);
  });

  it("a Thing's refresh age is fixed by its id, between a day and two, so five days of outage stay survivable", () => {
    const random = seeded(5);
    for (let i = 0; i < 1000; i++) {
      const id = recordId(random);
      const age = refreshAgeOf(id, REFRESH_AFTER_MS);
      expect(age).toBe(refreshAgeOf(id, REFRESH_AFTER_MS));
      expect(age).toBeGreaterThanOrEqual(REFRESH_AFTER_MS);
      expect(age).toBeLessThan(REFRESH_AFTER_MS + REFRESH_SPREAD_MS);
    }
  });

  it("100,000 agents restarted at once poll next over the whole jitter window, not in one minute", () => {
    const interval = 15 * MINUTE;
    const random = seeded(11);
    const second = Array.from({ length: FLEET }, () => jitteredDelay(interval, random));
    expect(Math.min(...second)).toBeGreaterThanOrEqual(interval * (1 - POLL_JITTER));
    expect(Math.max(...second)).toBeLessThan(interval * (1 + POLL_JITTER));
    const { busiest, spanHours } = perMinute(second);
    console.info(`${FLEET} agents restarted at once -> second poll over ${(spanHours * 60).toFixed(0)} min, busiest minute ${busiest}`);
    // 6 minutes of window: about a sixth of the fleet a minute, never the whole fleet.
    expect(busiest).toBeLessThanOrEqual(FLEET / 5);
  });
});
