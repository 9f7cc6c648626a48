import { describe, expect, it } from "vitest";
import { dialAddress, selfUrl } from "./self-url";

const PB = "/usr/local/bin/pocketbase";

describe("dialAddress", () => {
  it("dials loopback for an empty host", () => {
    expect(dialAddress(":9000")).toBe("127.0.0.1:9000");
  });

  it("dials loopback for 0.0.0.0", () => {
    expect(dialAddress("0.0.0.0:9000")).toBe("127.0.0.1:9000");
  });

  it("dials IPv6 loopback for [::]", () => {
    expect(dialAddress("[::]:9000")).toBe("[::1]:9000");
  });

  it("keeps a specific address", () => {
    expect(dialAddress("10.1.2.3:9000")).toBe("10.1.2.3:9000");
    expect(dialAddress("[fd00::7]:9000")).toBe("[fd00::7]:9000");
  });

  it("dials loopback for a bare port", () => {
    expect(dialAddress("9000")).toBe("127.0.0.1:9000");
  });
});

describe("selfUrl", () => {
  it("defaults to http://127.0.0.1:8090", () => {
    expect(selfUrl([PB, "serve"])).toEqual({ url: "http://127.0.0.1:8090" });
  });

  it("dials loopback for --http 0.0.0.0:9000", () => {
    expect(selfUrl([PB, "serve", "--http", "0.0.0.0:9000"])).toEqual({ url: "http://127.0.0.1:9000" });
  });

  it("reads --http=:9000", () => {
    expect(selfUrl([PB, "serve", "--http=:9000"])).toEqual({ url: "http://127.0.0.1:9000" });
  });

  it("dials [::1] for --http [::]:9000", () => {
    expect(selfUrl([PB, "serve", "--http", "[::]:9000"])).toEqual({ url: "http://[::1]:9000" });
  });

  it("dials the specific IP given to --http", () => {
    expect(selfUrl([PB, "serve", "--http=192.168.1.20:8080"])).toEqual({ url: "http://192.168.1.20:8080" });
  });

  it("serves https on 443 when domains follow serve, dialled on loopback with the first domain as server name", () => {
    expect(selfUrl([PB, "serve", "pb.example.com", "www.example.com"])).toEqual({ url: "https://127.0.0.1:443", serverName: "pb.example.com" });
  });

  it("prefers https over --http when domains are given", () => {
    expect(selfUrl([PB, "serve", "pb.example.com", "--http", "0.0.0.0:80"])).toEqual({ url: "https://127.0.0.1:443", serverName: "pb.example.com" });
  });

  it("reads an explicit --https with domains", () => {
    expect(selfUrl([PB, "serve", "pb.example.com", "--https=0.0.0.0:8443"])).toEqual({ url: "https://127.0.0.1:8443", serverName: "pb.example.com" });
  });

  it("reads an explicit --https without domains, with no server name", () => {
    expect(selfUrl([PB, "serve", "--https", "10.0.0.4:8443"])).toEqual({ url: "https://10.0.0.4:8443" });
  });

  it("ignores flags of other names", () => {
    expect(selfUrl([PB, "serve", "--dir", "/data/pb", "--encryptionEnv=KEY", "--dev"])).toEqual({ url: "http://127.0.0.1:8090" });
  });

  it("does not take a flag whose name starts with http for --http", () => {
    expect(selfUrl([PB, "serve", "--httpTimeout=5s"])).toEqual({ url: "http://127.0.0.1:8090" });
  });

  it("takes no domains when there is no serve command", () => {
    expect(selfUrl([PB, "migrate", "up"])).toEqual({ url: "http://127.0.0.1:8090" });
  });

  it("sees a domain given after other flags, as serve (cobra, interspersed flags) does", () => {
    // `pocketbase serve --dir /data pb.example.com` serves HTTPS on :443 for pb.example.com;
    // selfUrl stops reading domains at the first flag and dials http://127.0.0.1:8090 instead.
    expect(selfUrl([PB, "serve", "--dir", "/data", "pb.example.com"])).toEqual({ url: "https://127.0.0.1:443", serverName: "pb.example.com" });
  });
});
