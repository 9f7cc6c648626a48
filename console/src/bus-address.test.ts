import { describe, expect, it } from "vitest";
import { DEFAULT_BUS_URL, OVERRIDE_KEY, blockedOnPage, outsidePolicy, parseBusAddresses, readOverride, resolveBusAddresses, servedBusAddresses, writeOverride } from "./bus-address";

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => void values.delete(key),
    setItem: (key, value) => void values.set(key, value),
  };
}

describe("bus address resolution (spec 8.3)", () => {
  it("prefers the override, then the server list, then the compiled-in default", () => {
    expect(resolveBusAddresses(["wss://a.example:443"], ["wss://server.example"])).toEqual({ urls: ["wss://a.example:443"], source: "override", admitted: ["wss://server.example"] });
    expect(resolveBusAddresses([], ["wss://server.example", "wss://two.example"])).toEqual({
      urls: ["wss://server.example", "wss://two.example"], source: "server", admitted: ["wss://server.example", "wss://two.example"],
    });
    expect(resolveBusAddresses([], [])).toEqual({ urls: [DEFAULT_BUS_URL], source: "default", admitted: [DEFAULT_BUS_URL] });
    // The page's policy follows the server's list whatever this device overrides (headers.ts).
    expect(outsidePolicy(resolveBusAddresses(["ws://elsewhere:1", "wss://server.example"], ["wss://server.example"]))).toEqual(["ws://elsewhere:1"]);
    expect(outsidePolicy(resolveBusAddresses(["ws://127.0.0.1:9222"], []))).toEqual(["ws://127.0.0.1:9222"]);
  });

  it("reads several URLs separated by commas, spaces or lines, without repeats", () => {
    expect(parseBusAddresses("ws://a:9222, wss://b.example\nwss://c.example:8443/bus\n\nws://a:9222")).toEqual({ ok: true, urls: ["ws://a:9222", "wss://b.example", "wss://c.example:8443/bus"] });
  });

  it("refuses anything but ws:// and wss:// URLs, and an empty override", () => {
    expect(parseBusAddresses("https://a.example")).toEqual({ ok: false, error: "“https://a.example” must start with ws:// or wss://." });
    expect(parseBusAddresses("wss://ok.example, localhost:9222").ok).toBe(false);
    expect(parseBusAddresses("not a url").ok).toBe(false);
    expect(parseBusAddresses(" ,\n ").ok).toBe(false);
  });

  it("stores the override as a list on this device and clears it", () => {
    const storage = memoryStorage();
    expect(readOverride(storage)).toEqual([]);
    writeOverride(storage, ["wss://a.example"]);
    expect(readOverride(storage)).toEqual(["wss://a.example"]);
    writeOverride(storage, []);
    expect(storage.getItem(OVERRIDE_KEY)).toBeNull();
    storage.setItem(OVERRIDE_KEY, "{broken");
    expect(readOverride(storage)).toEqual([]);
    storage.setItem(OVERRIDE_KEY, JSON.stringify([1, 2]));
    expect(readOverride(storage)).toEqual([]);
  });

  it("names the plaintext addresses an HTTPS page cannot open", () => {
    expect(blockedOnPage(["ws://a:9222", "wss://b"], "https:")).toEqual(["ws://a:9222"]);
    expect(blockedOnPage(["ws://a:9222"], "http:")).toEqual([]);
  });
});

describe("servedBusAddresses", () => {
  it("reads the served list, and a malformed answer as none", () => {
    expect(servedBusAddresses({ natsWebsocketUrls: ["wss://a:443", "wss://b:443"] })).toEqual(["wss://a:443", "wss://b:443"]);
    expect(servedBusAddresses({})).toEqual([]);
    expect(servedBusAddresses({ natsWebsocketUrls: "wss://a:443" as unknown as string[] })).toEqual([]);
    expect(servedBusAddresses({ natsWebsocketUrls: ["wss://a:443", 7 as unknown as string] })).toEqual(["wss://a:443"]);
  });
});
