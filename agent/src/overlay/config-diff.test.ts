import { describe, expect, it } from "vitest";
import { hostConfigYaml, withBlocklistItems, blocklistItems, type HostConfigInput } from "../../../common/overlay/host-config";
import { applyMode, changedPaths, lighthouseAddrs, parseConfig } from "./config-diff";

const PEM = (kind: string, body: string) => `-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----\n`;
const base: HostConfigInput = {
  caPem: PEM("NEBULA CERTIFICATE", "Y2E="),
  certPem: PEM("NEBULA CERTIFICATE", "Y2VydA=="),
  keyPem: PEM("NEBULA X25519 PRIVATE KEY", "a2V5"),
  isLighthouse: false,
  lighthouses: [{ overlayIp: "10.42.7.1", publicEndpoint: "192.0.2.1:4242" }],
};
const config = (changes: Partial<HostConfigInput> = {}) => hostConfigYaml({ ...base, ...changes });

describe("applyMode", () => {
  it("is none for the same text and for the same settings written differently", () => {
    expect(applyMode(config(), config())).toBe("none");
    expect(applyMode(config(), `${config()}\n# a comment\n`)).toBe("none");
  });

  it("reloads for a blocklist change (the deactivation path) and for firewall-only changes", () => {
    const blocked = withBlocklistItems(config(), blocklistItems(["ab".repeat(32)]));
    expect(applyMode(config(), blocked)).toBe("reload");
    expect(applyMode(blocked, config())).toBe("reload");
    expect(applyMode(config(), config().replace("proto: icmp", "proto: any"))).toBe("reload");
  });

  it("restarts when how the lighthouse is reached or who we are changes", () => {
    expect(applyMode(config(), config({ lighthouses: [{ overlayIp: "10.42.7.1", publicEndpoint: "192.0.2.99:4242" }] }))).toBe("restart");
    expect(applyMode(config(), config({ lighthouses: [] }))).toBe("restart");
    expect(applyMode(config(), config({ certPem: PEM("NEBULA CERTIFICATE", "bmV3") }))).toBe("restart");
    expect(applyMode(config(), config({ caPem: base.caPem + PEM("NEBULA CERTIFICATE", "bmV4dA==") }))).toBe("restart");
    expect(applyMode(config(), config({ listenPort: 4243 }))).toBe("restart");
    expect(applyMode(config(), config({ tunDev: "nebula2" }))).toBe("restart");
  });

  it("restarts when a reloadable change comes with one that is not", () => {
    const both = withBlocklistItems(config({ listenPort: 4243 }), blocklistItems(["cd".repeat(32)]));
    expect(applyMode(config(), both)).toBe("restart");
  });
});

describe("changedPaths", () => {
  it("names each differing leaf, a key on one side only included", () => {
    expect(changedPaths({ a: { b: 1, c: [1] } }, { a: { b: 2, c: [1] }, d: true })).toEqual([["a", "b"], ["d"]]);
    expect(changedPaths({ a: { b: 1 } }, { a: 3 })).toEqual([["a"]]);
  });
});

describe("parseConfig", () => {
  it("refuses text that is not a YAML mapping without quoting it", () => {
    const secret = "SECRETKEYMATERIAL";
    expect(() => parseConfig(`pki: [${secret}`)).toThrow(/not valid YAML/);
    try {
      parseConfig(`pki: [${secret}`);
    } catch (err) {
      expect((err as Error).message).not.toContain(secret);
    }
    expect(() => parseConfig("- a\n- b\n")).toThrow(/not a YAML mapping/);
  });
});

describe("lighthouseAddrs", () => {
  it("lists lighthouse.hosts, and none on a lighthouse", () => {
    expect(lighthouseAddrs(config())).toEqual(["10.42.7.1"]);
    expect(lighthouseAddrs(config({ isLighthouse: true }))).toEqual([]);
  });
});
