import { describe, expect, it } from "vitest";
import { busServers } from "./servers";

describe("busServers", () => {
  it("reads bus:// as plain TCP and keeps nats:// and tls://, adding the default port where none is given", () => {
    expect(busServers(["bus://hub.example:4333", "nats://10.0.0.1", "tls://hub.example:443"], undefined)).toEqual([
      "nats://hub.example:4333",
      "nats://10.0.0.1:4222",
      "tls://hub.example:443",
    ]);
  });

  it("derives the hub from the platform URL's host on port 4222 when bus.servers is empty", () => {
    expect(busServers([], "https://platform.example:8443/base")).toEqual(["nats://platform.example:4222"]);
    expect(busServers([], "http://[::1]:8090")).toEqual(["nats://[::1]:4222"]);
  });

  it("refuses other schemes, non-URLs, and an empty list without a platform URL, naming the entry", () => {
    expect(() => busServers(["ws://hub:80"], undefined)).toThrow(/"ws:\/\/hub:80" has scheme ws:/);
    expect(() => busServers(["hub:4222"], undefined)).toThrow(/"hub:4222"/);
    expect(() => busServers(["not a url"], undefined)).toThrow(/"not a url" is not a URL/);
    expect(() => busServers([], undefined)).toThrow(/bus.servers is empty/);
  });
});
