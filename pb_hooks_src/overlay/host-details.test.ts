import { describe, expect, it } from "vitest";
import { HostError, checkPublicEndpoint, hostDetails, hostGroups, hostNetwork, hostNotAfter, overlayNetwork, parseAddress } from "./host-details";

describe("overlay host placement", () => {
  it("keeps the network's mask, never /32", () => {
    expect(hostNetwork("10.42.0.0/16", "10.42.0.5")).toBe("10.42.0.5/16");
    expect(hostNetwork("10.42.3.7/24", "10.42.3.200")).toBe("10.42.3.200/24");
    expect(hostNetwork("192.168.1.0/30", "192.168.1.2")).toBe("192.168.1.2/30");
  });

  it.each([
    ["10.43.0.5", /outside the network 10.42.0.0\/16/],
    ["10.42.0.0", /network address/],
    ["10.42.255.255", /broadcast address/],
    ["10.42.0.256", /must be an IPv4 address/],
    ["10.42.0.05", /must be an IPv4 address/],
    ["10.42.0.5/16", /must be an IPv4 address/],
    ["", /must be an IPv4 address/],
    ["fd00::1", /must be an IPv4 address/],
  ])("refuses %s", (ip, message) => {
    expect(() => hostNetwork("10.42.0.0/16", ip)).toThrow(HostError);
    expect(() => hostNetwork("10.42.0.0/16", ip)).toThrow(message);
  });

  it("takes a network of /30 or wider, refusing anything else with the cidr named", () => {
    expect(overlayNetwork("10.42.0.0/16")).toEqual({ ip: 0x0a2a0000, bits: 16 });
    expect(overlayNetwork("192.168.1.0/30").bits).toBe(30);
    for (const cidr of ["zzzz", "", "10.42.0.0", "10.42.0.0/33", "10.042.0.0/16", "::1/64"]) {
      expect(() => overlayNetwork(cidr)).toThrow(HostError);
      expect(() => overlayNetwork(cidr)).toThrow(`"${cidr}"`);
    }
    expect(() => overlayNetwork("10.42.0.4/31")).toThrow("too narrow");
  });

  it("takes a public endpoint as host:port, or none", () => {
    for (const endpoint of ["", "203.0.113.7:4242", "lighthouse.example.com:4242", "[2001:db8::1]:4242"]) expect(() => checkPublicEndpoint(endpoint), endpoint).not.toThrow();
    for (const endpoint of ["not an endpoint", "203.0.113.7", "host:0", "host:65536", "host:port", ":4242"]) {
      expect(() => checkPublicEndpoint(endpoint), endpoint).toThrow(`public_endpoint must be host:port (for example 203.0.113.7:4242), got "${endpoint}"`);
    }
  });

  it("refuses a broken or too narrow network", () => {
    expect(() => hostNetwork("10.42.0.0", "10.42.0.5")).toThrow(/not an IPv4 network/);
    expect(() => hostNetwork("10.42.0.4/31", "10.42.0.5")).toThrow(/too narrow/);
  });

  it("parses addresses as uint32", () => {
    expect(parseAddress("255.255.255.255")).toBe(4294967295);
    expect(parseAddress("10.42.0.1")).toBe(10 * 16777216 + 42 * 65536 + 1);
  });
});

describe("overlay host details", () => {
  const now = new Date("2026-11-21T12:00:00.500Z");
  const nowS = Math.floor(now.getTime() / 1000);
  const publicKey = new Uint8Array(32).fill(7);

  it("groups: an array of non-empty strings, duplicates dropped", () => {
    expect(hostGroups(null)).toEqual([]);
    expect(hostGroups(["a", "b", "a"])).toEqual(["a", "b"]);
    expect(() => hostGroups("a")).toThrow(/array of non-empty strings/);
    expect(() => hostGroups(["a", 1])).toThrow(HostError);
    expect(() => hostGroups([""])).toThrow(HostError);
  });

  it("lasts one calendar year, never beyond the CA", () => {
    expect(hostNotAfter(now, nowS + 10 * 366 * 86400)).toBe(Date.parse("2027-11-21T12:00:00Z") / 1000);
    expect(hostNotAfter(now, nowS + 3600)).toBe(nowS + 3600);
    expect(() => hostNotAfter(now, nowS)).toThrow(/expired/);
  });

  it("describes a host certificate issued by the CA", () => {
    const details = hostDetails({ name: "h1", network: "10.42.0.5/16", groups: ["servers"], now, caNotAfter: nowS + 100, caFingerprint: "ab".repeat(32), publicKey });
    expect(details).toEqual({
      name: "h1",
      networks: ["10.42.0.5/16"],
      groups: ["servers"],
      isCA: false,
      issuer: "ab".repeat(32),
      notBefore: nowS,
      notAfter: nowS + 100,
      publicKey,
    });
    expect(() => hostDetails({ name: " ", network: "10.42.0.5/16", groups: [], now, caNotAfter: nowS + 100, caFingerprint: "", publicKey })).toThrow(/name is required/);
  });
});
