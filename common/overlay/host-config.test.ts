import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { blocklistItems, hostConfigYaml, toYaml, withBlocklistItems, yamlScalar } from "./host-config";

const CA = "-----BEGIN NEBULA CERTIFICATE-----\nAAAA\nBBBB\n-----END NEBULA CERTIFICATE-----\n";
const CERT = "-----BEGIN NEBULA CERTIFICATE-----\nCCCC\n-----END NEBULA CERTIFICATE-----\n";
const KEY = "-----BEGIN NEBULA X25519 PRIVATE KEY-----\nDDDD\n-----END NEBULA X25519 PRIVATE KEY-----\n";

describe("YAML emitter", () => {
  it("quotes what YAML would read as another type", () => {
    expect(yamlScalar("any")).toBe("any");
    expect(yamlScalar("true")).toBe('"true"');
    expect(yamlScalar("4242")).toBe('"4242"');
    expect(yamlScalar("1.2.3.4:4242")).toBe("1.2.3.4:4242");
    expect(yamlScalar("a b")).toBe('"a b"');
    expect(yamlScalar(": x")).toBe('": x"');
    expect(yamlScalar(4242)).toBe("4242");
    expect(yamlScalar(false)).toBe("false");
  });

  it("round-trips through a YAML parser", () => {
    const doc = {
      a: { b: [1, "two", { c: "d", e: ["f"] }], empty: [], none: {} },
      text: "line1\nline2\n",
      bare: "no newline\nat end",
      weird: "#comment-like",
      "key with space": null,
    };
    expect(yaml.load(toYaml(doc))).toEqual(doc);
  });
});

describe("host config", () => {
  it("is a complete Nebula config with the PKI inline", () => {
    const text = hostConfigYaml({
      caPem: CA,
      certPem: CERT,
      keyPem: KEY,
      isLighthouse: false,
      lighthouses: [{ overlayIp: "10.42.0.1", publicEndpoint: "198.51.100.1:4242" }],
    });
    const config = yaml.load(text) as Record<string, any>;
    expect(config.pki).toEqual({ ca: CA, cert: CERT, key: KEY, blocklist: [], disconnect_invalid: true });
    expect(config.static_host_map).toEqual({ "10.42.0.1": ["198.51.100.1:4242"] });
    expect(config.lighthouse).toMatchObject({ am_lighthouse: false, hosts: ["10.42.0.1"] });
    expect(config.listen).toEqual({ host: "0.0.0.0", port: 4242 });
    expect(config.punchy.punch).toBe(true);
    expect(config.tun.dev).toBe("nebula1");
    expect(config.firewall.outbound).toEqual([{ port: "any", proto: "any", host: "any" }]);
    expect(config.firewall.inbound).toEqual([{ port: "any", proto: "icmp", host: "any" }]);
  });

  it("a lighthouse lists no lighthouses", () => {
    const config = yaml.load(
      hostConfigYaml({ caPem: CA, certPem: CERT, keyPem: KEY, isLighthouse: true, lighthouses: [{ overlayIp: "10.42.0.1", publicEndpoint: "198.51.100.1:4242" }] }),
    ) as Record<string, any>;
    expect(config.lighthouse).toMatchObject({ am_lighthouse: true, hosts: [] });
    expect(config.static_host_map).toEqual({});
  });

  it("tears down tunnels to peers that turn invalid, the served blocklist included", () => {
    const text = hostConfigYaml({ caPem: CA, certPem: CERT, keyPem: KEY, isLighthouse: false, lighthouses: [] });
    const fingerprint = "ab".repeat(32);
    const served = yaml.load(withBlocklistItems(text, blocklistItems([fingerprint]))) as Record<string, any>;
    expect(served.pki).toMatchObject({ blocklist: [fingerprint], disconnect_invalid: true });
  });
});
