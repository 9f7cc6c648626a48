import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { blocklistItems, hostConfig, hostConfigYaml, toYaml, withBlocklistItems, withBlocklistItemsExcept, withoutItem } from "../../common/overlay/host-config";
import { EXPIRY_MARGIN_SECONDS, appendRevoked, blocklist, currentBlocklist, datedRevocations, notAfterSeconds, revokedEntries, revokedEntriesFromJson } from "./revocations";

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

  it("reads revoked_fingerprints leniently, bare fingerprints and dated pairs alike", () => {
    expect(revokedEntries(null)).toEqual([]);
    expect(revokedEntries({ a: 1 })).toEqual([]);
    expect(revokedEntries(["B", ["a", 100], ["c", "x"], 3, [7, 1], ""])).toEqual([
      { fingerprint: "b" },
      { fingerprint: "a", notAfter: 100 },
      { fingerprint: "c" },
    ]);
    expect(revokedEntriesFromJson("")).toEqual([]);
    expect(revokedEntriesFromJson("null")).toEqual([]);
    expect(revokedEntriesFromJson("{not json")).toEqual([]);
    expect(revokedEntriesFromJson('["B",["a",5]]')).toEqual([{ fingerprint: "b" }, { fingerprint: "a", notAfter: 5 }]);
  });

  it("reads a stored date in unix seconds", () => {
    expect(notAfterSeconds("2027-01-02 03:04:05.678Z")).toBe(Date.UTC(2027, 0, 2, 3, 4, 5) / 1000);
    expect(notAfterSeconds("")).toBeUndefined();
    expect(notAfterSeconds("soon")).toBeUndefined();
  });

  it("appends in revocation order, only what is new, dated when the expiry is known", () => {
    const now = 1_000;
    expect(appendRevoked('["b"]', [{ fingerprint: "A", notAfter: 5_000 }, { fingerprint: "" }, { fingerprint: "c" }, { fingerprint: "a" }, { fingerprint: "b" }], now)).toEqual([
      "b",
      ["a", 5_000],
      "c",
    ]);
    expect(appendRevoked('["b"]', [{ fingerprint: "b" }, { fingerprint: " " }], now)).toBeUndefined();
    expect(appendRevoked("", [{ fingerprint: "a" }], now)).toEqual(["a"]);
    expect(appendRevoked("null", [{ fingerprint: "a" }], now)).toEqual(["a"]);
    expect(appendRevoked("{garbage", [{ fingerprint: "a" }], now)).toEqual(["a"]);
  });

  it("drops expired entries on the next write, never a bare one, and adds no certificate already expired", () => {
    const now = 10_000;
    const gone = now - EXPIRY_MARGIN_SECONDS;
    const stored = JSON.stringify(["old", ["expired", gone], ["in-margin", gone + 1], ["valid", now + 5]]);
    expect(appendRevoked(stored, [{ fingerprint: "new", notAfter: now + 100 }], now)).toEqual(["old", ["in-margin", gone + 1], ["valid", now + 5], ["new", now + 100]]);
    expect(appendRevoked(stored, [], now)).toEqual(["old", ["in-margin", gone + 1], ["valid", now + 5]]);
    expect(appendRevoked('["old"]', [{ fingerprint: "late", notAfter: gone }], now)).toBeUndefined();
  });

  it("serves the entries valid now, and says when the next one leaves", () => {
    const entries = revokedEntries(["zz", ["bb", 2_000], ["aa", 3_000], ["cc", 500]]);
    expect(currentBlocklist(entries, 1_000)).toEqual({ fingerprints: ["aa", "bb", "zz"], changesAt: 2_000 + EXPIRY_MARGIN_SECONDS });
    expect(currentBlocklist(entries, 2_000 + EXPIRY_MARGIN_SECONDS)).toEqual({ fingerprints: ["aa", "zz"], changesAt: 3_000 + EXPIRY_MARGIN_SECONDS });
    expect(currentBlocklist(entries, 10_000)).toEqual({ fingerprints: ["zz"], changesAt: Infinity });
    expect(currentBlocklist([], 0)).toEqual({ fingerprints: [], changesAt: Infinity });
  });

  it("dates bare entries a host still holds, keeps the others bare and drops the expired", () => {
    const expiries = new Map([["held", 9_000], ["gone", 100]]);
    const notAfterOf = (f: string) => expiries.get(f);
    expect(datedRevocations('["held","unknown","gone",["dated",8000]]', notAfterOf, 1_000)).toEqual([["held", 9_000], "unknown", ["dated", 8_000]]);
    expect(datedRevocations('["unknown",["dated",8000]]', notAfterOf, 1_000)).toBeUndefined();
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

  it("joins the config, the entries and the host's own line dropped in one pass, as the two steps do", () => {
    const items = blocklistItems(["ab12", "cd34", "xab12"]);
    for (const own of ["ab12", "xab12", "cd34", "12", ""]) {
      expect(withBlocklistItemsExcept(emitted([]), items, own)).toBe(withBlocklistItems(emitted([]), withoutItem(items, own)));
    }
    expect(withBlocklistItemsExcept(emitted(["ee"]), blocklistItems(["ab12"]), "ab12")).toBe(emitted([]));
    expect(withBlocklistItemsExcept(emitted([]), "", "ab12")).toBe(emitted([]));
    expect(withBlocklistItemsExcept("pki:\n  ca: x\n", items, "ab12")).toBe("pki:\n  ca: x\n");
  });

  it("leaves a text without pki.blocklist unchanged, and a key's PEM block alone", () => {
    expect(withBlocklistItems("pki:\n  ca: x\n", blocklistItems(["ab12"]))).toBe("pki:\n  ca: x\n");
    const replaced = withBlocklistItems(hostConfigYaml(base), blocklistItems(["ab12"]));
    expect((yaml.load(replaced) as { pki: { key: string } }).pki.key).toBe(base.keyPem);
    expect(blocklistIn(replaced)).toEqual(["ab12"]);
  });
});
