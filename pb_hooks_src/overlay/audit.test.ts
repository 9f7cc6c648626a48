import { describe, expect, it } from "vitest";
import { certificateStale } from "./audit";

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
