import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { blocklistItems, hostConfig, hostConfigYaml, toYaml, withBlocklistItems, withoutItem } from "../../common/overlay/host-config";
import { appendRevoked, blocklist, revokedList, revokedListFromJson } from "./revocations";

const base = { caPem: "ca\n", certPem: "c\n", keyPem: "-----BEGIN K-----\n  blocklist: []\n-----END K-----\n", isLighthouse: false, lighthouses: [] };
const blocklistIn = (text: string): string[] => (yaml.load(text) as { pki: { blocklist: string[] } }).pki.blocklist;
/** What the emitter writes for the config with `list` as pki.blocklist. */
const emitted = (list: string[]): string => {
  const config = hostConfig(base);
  return toYaml({ ...config, pki: { ...(config.pki as Record<string, string>), blocklist: list } });
};

describe("revocation list", () => {
  it("blocklist keeps non-empty fingerprints once, lowercased and sorted, without the host's own", () => {
    expect(blocklist(["bb", "AA", "", "aa", 3, null, "cc"], "CC")).toEqual(["aa", "bb"]);
    expect(blocklist([])).toEqual([]);
  });

  it("reads revoked_fingerprints leniently", () => {
    expect(revokedList(null)).toEqual([]);
    expect(revokedList({ a: 1 })).toEqual([]);
    expect(revokedList(["b", "a"])).toEqual(["a", "b"]);
    expect(revokedListFromJson("")).toEqual([]);
    expect(revokedListFromJson("null")).toEqual([]);
    expect(revokedListFromJson("{not json")).toEqual([]);
    expect(revokedListFromJson('["B","a"]')).toEqual(["a", "b"]);
  });

  it("appends in revocation order, only what is new", () => {
    expect(appendRevoked('["b"]', ["A", "", "c", "a", "b"])).toEqual(["b", "a", "c"]);
    expect(appendRevoked('["b"]', ["b", " "])).toBeUndefined();
    expect(appendRevoked("", ["a"])).toEqual(["a"]);
    expect(appendRevoked("null", ["a"])).toEqual(["a"]);
    expect(appendRevoked("{garbage", ["a"])).toEqual(["a"]);
  });
});

describe("pki.blocklist of a served config", () => {
  it("is stored empty", () => {
    expect(blocklistIn(hostConfigYaml(base))).toEqual([]);
  });

  it("is the text the emitter writes for the list, from an empty, a longer or a shorter list", () => {
    for (const [from, to] of [
      [[], ["ab12", "cd34"]],
      [["ab12", "cd34", "ef56"], ["ab12"]],
      [["ab12"], []],
      [[], ["1234", "true"]],
    ]) {
      const replaced = withBlocklistItems(emitted(from), blocklistItems(to));
      expect(replaced).toBe(emitted(to));
      expect(blocklistIn(replaced)).toEqual(to);
    }
  });

  it("drops the host's own line only", () => {
    const items = blocklistItems(["ab12", "cd34", "xab12"]);
    expect(withoutItem(items, "ab12")).toBe(blocklistItems(["cd34", "xab12"]));
    expect(withoutItem(items, "xab12")).toBe(blocklistItems(["ab12", "cd34"]));
    expect(withoutItem(items, "12")).toBe(items);
    expect(withoutItem(blocklistItems(["ab12"]), "ab12")).toBe("");
  });

  it("leaves a text without pki.blocklist unchanged, and a key's PEM block alone", () => {
    expect(withBlocklistItems("pki:\n  ca: x\n", blocklistItems(["ab12"]))).toBe("pki:\n  ca: x\n");
    const replaced = withBlocklistItems(hostConfigYaml(base), blocklistItems(["ab12"]));
    expect((yaml.load(replaced) as { pki: { key: string } }).pki.key).toBe(base.keyPem);
    expect(blocklistIn(replaced)).toEqual(["ab12"]);
  });
});
