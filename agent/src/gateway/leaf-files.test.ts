import { describe, expect, it } from "vitest";
import { LEAF_PINGS, leafFiles, renderLeafConfig, type LeafPlaces, type Pinned } from "./leaf-files";

const pinned: Pinned = {
  domain: "gw-1", operator_jwt: "op.jwt", sys_account_pub: "ASYS", account_pub: "AACC", hub_leaf_url: "nats-leaf://hub.example:7422", hub_domain: "hub",
};
const places: LeafPlaces = { files: leafFiles("/state"), listen: "0.0.0.0:4222", monitorPort: 0 };
const config = renderLeafConfig(pinned, places);
/** The body of the one leafnode remote. */
const remote = /remotes: \[\s*\{([^}]*)\}/.exec(config)?.[1] ?? "";

describe("the leaf server config", () => {
  it("has one remote that dials hub_leaf_url only, never the addresses the hub advertises", () => {
    expect(remote).toContain('url: "nats-leaf://hub.example:7422"');
    expect(remote).toMatch(/^\s*ignore_discovered_servers: true$/m);
  });

  it("pings the uplink so that a silently dropped one is closed within (ping_max + 1) intervals; no monitoring without a port", () => {
    expect(config).toMatch(new RegExp(`^ping_interval: "${LEAF_PINGS.interval}"$`, "m"));
    expect(config).toMatch(new RegExp(`^ping_max: ${LEAF_PINGS.max}$`, "m"));
    expect(config).not.toContain("http:");
  });

  it("takes other pings when the places give them (the e2e harness sees a stopped hub within seconds)", () => {
    const text = renderLeafConfig(pinned, { ...places, pings: { interval: "2s", max: 3 } });
    expect(text).toContain('ping_interval: "2s"\nping_max: 3\n');
    expect(text).not.toContain(`"${LEAF_PINGS.interval}"`);
  });
});
