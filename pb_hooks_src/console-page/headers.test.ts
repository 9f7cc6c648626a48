import { describe, expect, it } from "vitest";
import { busSources, consoleHeaders, contentSecurityPolicy, websocketSource } from "./headers";

const directive = (policy: string, name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `));

describe("websocketSource", () => {
  it("keeps scheme, host, port and path", () => {
    expect(websocketSource("wss://Bus.Example.com:443/nats")).toBe("wss://bus.example.com:443/nats");
    expect(websocketSource("ws://127.0.0.1:9222")).toBe("ws://127.0.0.1:9222");
    expect(websocketSource("ws://[::1]:9222")).toBe("ws://[::1]:9222");
  });
  it("drops a query and a fragment, which a CSP source cannot hold", () => {
    expect(websocketSource("wss://bus.example.com/ws?x=1#y")).toBe("wss://bus.example.com/ws");
  });
  it("refuses what is not a websocket URL or could break out of the directive", () => {
    for (const url of ["https://bus.example.com", "bus.example.com:9222", "ws://", "ws://a b", "ws://a;script-src *", "ws://'unsafe-inline'", "javascript:alert(1)"]) {
      expect(websocketSource(url), url).toBeUndefined();
    }
  });
});

describe("busSources", () => {
  it("is the configured list, without duplicates", () => {
    expect(busSources(["wss://a.example:443", "wss://b.example:443", "wss://a.example:443"])).toEqual(["wss://a.example:443", "wss://b.example:443"]);
  });
  it("is the console's compiled-in default when the list is empty", () => {
    expect(busSources([])).toEqual(["ws://localhost:9222"]);
  });
});

describe("contentSecurityPolicy", () => {
  const policy = contentSecurityPolicy(["wss://bus.example.com:443", "ws://10.0.0.2:9222"]);
  it("admits this origin and the bus addresses for connections", () => {
    expect(directive(policy, "connect-src")).toBe("connect-src 'self' wss://bus.example.com:443 ws://10.0.0.2:9222");
  });
  it("allows no inline script or style, no plugin, no framing", () => {
    expect(directive(policy, "default-src")).toBe("default-src 'self'");
    expect(directive(policy, "script-src")).toBe("script-src 'self'");
    expect(directive(policy, "style-src")).toBe("style-src 'self'");
    expect(directive(policy, "img-src")).toBe("img-src 'self'");
    expect(directive(policy, "object-src")).toBe("object-src 'none'");
    expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe|data:|\*/);
  });
  it("leaves out an address it cannot express safely", () => {
    expect(directive(contentSecurityPolicy(["ws://x;script-src *"]), "connect-src")).toBe("connect-src 'self'");
  });
});

describe("consoleHeaders", () => {
  it("adds nosniff and a referrer policy that keeps invitation tokens in", () => {
    expect(consoleHeaders([])).toMatchObject({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" });
  });
});
