import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { freePorts } from "./ports";

const ephemeralStart = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);

it("never hands out a port twice in a process, and only ports below the ephemeral range", async () => {
  const seen = new Set<number>();
  for (let i = 0; i < 200; i++) {
    for (const port of await freePorts(5)) {
      expect(seen.has(port), `port ${port} handed out twice`).toBe(false);
      seen.add(port);
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart);
    }
  }
});
