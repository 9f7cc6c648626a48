import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { blocklist, certificateStale, revokedList, withRevoked } from "./audit";
import { hostConfigYaml } from "./host-config";

describe("blocklist", () => {
  it("keeps non-empty fingerprints once, lowercased and sorted, without the host's own", () => {
    expect(blocklist(["bb", "AA", "", "aa", 3, null, "cc"], "CC")).toEqual(["aa", "bb"]);
    expect(blocklist([])).toEqual([]);
  });

  it("reads revoked_fingerprints leniently and adds to it", () => {
    expect(revokedList(null)).toEqual([]);
    expect(revokedList({ a: 1 })).toEqual([]);
    expect(revokedList(["b", "a"])).toEqual(["a", "b"]);
    expect(withRevoked(["a"], "b")).toEqual(["a", "b"]);
    expect(withRevoked(["a"], "")).toEqual(["a"]);
    expect(withRevoked(["a"], "a")).toEqual(["a"]);
  });

  it("lands in pki.blocklist of the config", () => {
    const text = hostConfigYaml({ caPem: "ca\n", certPem: "c\n", keyPem: "k\n", isLighthouse: false, lighthouses: [], blocklist: ["ab12", "cd34"] });
    expect((yaml.load(text) as { pki: { blocklist: string[] } }).pki.blocklist).toEqual(["ab12", "cd34"]);
    const empty = hostConfigYaml({ caPem: "ca\n", certPem: "c\n", keyPem: "k\n", isLighthouse: false, lighthouses: [] });
    expect((yaml.load(empty) as { pki: { blocklist: string[] } }).pki.blocklist).toEqual([]);
  });
});

describe("certificateStale", () => {
  it("is false when the certificate carries the host's address with the network's mask", () => {
    expect(certificateStale(["10.42.0.5/16"], "10.42.0.0/16", "10.42.0.5")).toBe(false);
  });

  it("is true for a /32 certificate, a changed mask, a moved network or another address", () => {
    expect(certificateStale(["10.42.0.5/32"], "10.42.0.0/16", "10.42.0.5")).toBe(true);
    expect(certificateStale(["10.42.0.5/16"], "10.42.0.0/24", "10.42.0.5")).toBe(true);
    expect(certificateStale(["10.42.0.5/16"], "10.43.0.0/16", "10.42.0.5")).toBe(true);
    expect(certificateStale(["10.42.0.6/16"], "10.42.0.0/16", "10.42.0.5")).toBe(true);
  });

  it("is true for no network, several networks or an unreadable one", () => {
    expect(certificateStale([], "10.42.0.0/16", "10.42.0.5")).toBe(true);
    expect(certificateStale(["10.42.0.5/16", "10.42.0.5/16"], "10.42.0.0/16", "10.42.0.5")).toBe(true);
    expect(certificateStale(["nonsense"], "10.42.0.0/16", "10.42.0.5")).toBe(true);
  });

  it("is undefined when the network's cidr or the host's address cannot be read", () => {
    expect(certificateStale(["10.42.0.5/16"], "not a cidr", "10.42.0.5")).toBeUndefined();
    expect(certificateStale(["10.42.0.5/16"], "10.42.0.0/16", "")).toBeUndefined();
  });
});
