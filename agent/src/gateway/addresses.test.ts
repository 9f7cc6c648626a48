import { describe, expect, it } from "vitest";
import { hubLeafAddress, localLeafUrl } from "./addresses";

describe("gateway addresses", () => {
  it("dials a wildcard listener on loopback, a named host as named", () => {
    expect(localLeafUrl("0.0.0.0:4222")).toBe("nats://127.0.0.1:4222");
    expect(localLeafUrl(":4223")).toBe("nats://127.0.0.1:4223");
    expect(localLeafUrl("[::]:4222")).toBe("nats://[::1]:4222");
    expect(localLeafUrl("10.1.2.3:5000")).toBe("nats://10.1.2.3:5000");
    expect(() => localLeafUrl("4222")).toThrow(/host:port/);
  });
  it("reads host and port of the hub's leaf URL in any of its schemes, 7422 when none", () => {
    expect(hubLeafAddress("nats-leaf://127.0.0.1:7500")).toEqual({ host: "127.0.0.1", port: 7500 });
    expect(hubLeafAddress("bus-leaf://hub.example.com")).toEqual({ host: "hub.example.com", port: 7422 });
    expect(hubLeafAddress("tls://[fd00::1]:7422")).toEqual({ host: "fd00::1", port: 7422 });
    expect(hubLeafAddress("not a url")).toBeUndefined();
  });
});
