import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { hostConfigYaml, withBlocklist } from "./host-config";
import { blocklist, revokedList, revokedListFromJson, withRevoked } from "./revocations";

const base = { caPem: "ca\n", certPem: "c\n", keyPem: "-----BEGIN K-----\n  blocklist: []\n-----END K-----\n", isLighthouse: false, lighthouses: [] };
const blocklistIn = (text: string): string[] => (yaml.load(text) as { pki: { blocklist: string[] } }).pki.blocklist;

describe("blocklist", () => {
  it("keeps non-empty fingerprints once, lowercased and sorted, without the host's own", () => {
    expect(blocklist(["bb", "AA", "", "aa", 3, null, "cc"], "CC")).toEqual(["aa", "bb"]);
    expect(blocklist([])).toEqual([]);
  });

  it("reads revoked_fingerprints leniently and adds to it", () => {
    expect(revokedList(null)).toEqual([]);
    expect(revokedList({ a: 1 })).toEqual([]);
    expect(revokedList(["b", "a"])).toEqual(["a", "b"]);
    expect(revokedListFromJson("")).toEqual([]);
    expect(revokedListFromJson("null")).toEqual([]);
    expect(revokedListFromJson("{not json")).toEqual([]);
    expect(revokedListFromJson('["B","a"]')).toEqual(["a", "b"]);
    expect(withRevoked(["a"], "b")).toEqual(["a", "b"]);
    expect(withRevoked(["a"], "")).toEqual(["a"]);
    expect(withRevoked(["a"], "a")).toEqual(["a"]);
    expect(withRevoked(["b"], "A", "", "c", "a")).toEqual(["a", "b", "c"]);
  });

  it("lands in pki.blocklist of the config", () => {
    expect(blocklistIn(hostConfigYaml({ ...base, blocklist: ["ab12", "cd34"] }))).toEqual(["ab12", "cd34"]);
    expect(blocklistIn(hostConfigYaml(base))).toEqual([]);
  });
});

describe("withBlocklist", () => {
  it("gives the text hostConfig would emit with the new list, from an empty list, a longer one and a shorter one", () => {
    for (const [from, to] of [
      [[], ["ab12", "cd34"]],
      [["ab12", "cd34", "ef56"], ["ab12"]],
      [["ab12"], []],
      [[], []],
    ]) {
      const replaced = withBlocklist(hostConfigYaml({ ...base, blocklist: from }), to);
      expect(replaced).toBe(hostConfigYaml({ ...base, blocklist: to }));
      expect(blocklistIn(replaced)).toEqual(to);
    }
  });

  it("leaves a text without pki.blocklist unchanged, and a key's PEM block alone", () => {
    expect(withBlocklist("pki:\n  ca: x\n", ["ab12"])).toBe("pki:\n  ca: x\n");
    const replaced = withBlocklist(hostConfigYaml(base), ["ab12"]);
    expect((yaml.load(replaced) as { pki: { key: string } }).pki.key).toBe(base.keyPem);
  });
});
