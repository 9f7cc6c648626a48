import { describe, expect, it } from "vitest";
import { leafFiles, renderLeafConfig, type LeafPlaces, type Pinned } from "./leaf-files";

const pinned: Pinned = {
  domain: "gw-1", operator_jwt: "op.jwt", sys_account_pub: "ASYS", account_pub: "AACC", hub_leaf_url: "nats-leaf://hub:7422", hub_domain: "hub",
};
const places: LeafPlaces = { files: leafFiles("/var/lib/agent"), listen: "0.0.0.0:4222", monitorPort: 0 };

describe("the leaf server config", () => {
  it("pings every 10 s with 2 unanswered tolerated unless told otherwise (a silent uplink drop is seen within 30 s)", () => {
    const text = renderLeafConfig(pinned, places);
    expect(text).toContain('ping_interval: "10s"\nping_max: 2\n');
    expect(text).not.toContain("http:");
  });
  it("takes other pings when the places give them (the e2e harness sees a stopped hub within seconds)", () => {
    const text = renderLeafConfig(pinned, { ...places, pings: { interval: "2s", max: 3 } });
    expect(text).toContain('ping_interval: "2s"\nping_max: 3\n');
    expect(text).not.toContain("10s");
  });
});
