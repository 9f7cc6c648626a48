import { describe, expect, it } from "vitest";
import { leafFiles, PING_INTERVAL, PING_MAX, renderLeafConfig, type Pinned } from "./leaf-files";

const pinned: Pinned = {
  domain: "gw-1", operator_jwt: "op.jwt", sys_account_pub: "ASYS", account_pub: "AACC", hub_leaf_url: "nats-leaf://hub.example:7422", hub_domain: "hub",
};
const config = renderLeafConfig(pinned, { files: leafFiles("/state"), listen: "0.0.0.0:4222", monitorPort: 0 });
/** The body of the one leafnode remote. */
const remote = /remotes: \[\s*\{([^}]*)\}/.exec(config)?.[1] ?? "";

describe("the leaf server config", () => {
  it("has one remote that dials hub_leaf_url only, never the addresses the hub advertises", () => {
    expect(remote).toContain('url: "nats-leaf://hub.example:7422"');
    expect(remote).toMatch(/^\s*ignore_discovered_servers: true$/m);
  });

  it("pings the uplink so that a silently dropped one is closed within (ping_max + 1) intervals", () => {
    expect(config).toMatch(new RegExp(`^ping_interval: "${PING_INTERVAL}"$`, "m"));
    expect(config).toMatch(new RegExp(`^ping_max: ${PING_MAX}$`, "m"));
  });
});
