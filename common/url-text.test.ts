import { describe, expect, it } from "vitest";
import { withoutCredentials } from "./url-text";

describe("withoutCredentials", () => {
  it("drops a user and password, or a token, before the host", () => {
    expect(withoutCredentials("nats://admin:hunter2@127.0.0.1:4222")).toBe("nats://127.0.0.1:4222");
    expect(withoutCredentials("tls://s3cr3tT0ken@bus.example.com")).toBe("tls://bus.example.com");
    expect(withoutCredentials("nats-leaf://u:p@[::1]:7422/path?q=a@b")).toBe("nats-leaf://[::1]:7422/path?q=a@b");
  });

  it("leaves a URL without userinfo, an @ after the host, and other text alone", () => {
    expect(withoutCredentials("nats://127.0.0.1:4222")).toBe("nats://127.0.0.1:4222");
    expect(withoutCredentials("ws://host:9222/a@b")).toBe("ws://host:9222/a@b");
    expect(withoutCredentials("user:pw@host")).toBe("user:pw@host");
  });

  it("drops the userinfo of every URL of a list separated by spaces", () => {
    expect(withoutCredentials("nats://a:x@n1:4222 nats://n2:4222\ttls://tok@n3:4222")).toBe("nats://n1:4222 nats://n2:4222\ttls://n3:4222");
  });
});
