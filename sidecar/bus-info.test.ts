import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { busAddress, busInfo, parseInfoLine } from "./bus-info";
import { HttpError } from "./errors";

const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A TCP server on 127.0.0.1 (port 0) that does `onConnection` with each client; resolves its bus URL. */
async function serve(onConnection: (socket: Socket) => void): Promise<{ url: string; port: number }> {
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { url: `nats://127.0.0.1:${address.port}`, port: address.port };
}

/** A port on which nothing listens: bound, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** The HttpError busInfo rejects with. */
async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error("expected busInfo to reject");
}

describe("busAddress", () => {
  it("reads host and port of a nats:// URL", () => {
    expect(busAddress("nats://bus.example.com:4333")).toEqual({ host: "bus.example.com", port: 4333 });
  });

  it("uses port 4222 when the URL gives none", () => {
    expect(busAddress("nats://bus.example.com")).toEqual({ host: "bus.example.com", port: 4222 });
  });

  it("reads a tls:// URL the same way", () => {
    expect(busAddress("tls://10.0.0.7:7422")).toEqual({ host: "10.0.0.7", port: 7422 });
  });

  it("strips the brackets of an IPv6 host", () => {
    expect(busAddress("nats://[::1]:4223")).toEqual({ host: "::1", port: 4223 });
  });

  it("strips the brackets of an IPv6 host without a port and uses 4222", () => {
    expect(busAddress("nats://[2001:db8::5]")).toEqual({ host: "2001:db8::5", port: 4222 });
  });

  it("ignores credentials in the URL", () => {
    expect(busAddress("nats://user:pass@bus:4222")).toEqual({ host: "bus", port: 4222 });
  });

  it("refuses a string that is not a URL with HttpError 400", () => {
    expect(() => busAddress("not a url")).toThrow(HttpError);
    try {
      busAddress("not a url");
    } catch (err) {
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).toContain("nats://host:4222");
    }
  });

  it("refuses a scheme-less host:port rather than dialling loopback in its place", () => {
    // new URL("bus.internal:4222") parses "bus.internal:" as a scheme with an empty host, which
    // busAddress turns into 127.0.0.1: a probe of the wrong machine.
    expect(() => busAddress("bus.internal:4222")).toThrow(HttpError);
  });
});

describe("parseInfoLine", () => {
  it("reads server id and name, version and jetstream from an INFO line", () => {
    expect(parseInfoLine('INFO {"server_id":"NABC","server_name":"bus-hub-2","version":"2.15.2","jetstream":true,"max_payload":1048576}')).toEqual({
      serverId: "NABC",
      serverName: "bus-hub-2",
      version: "2.15.2",
      jetstream: true,
    });
  });

  it("reads jetstream as false when the field is absent", () => {
    expect(parseInfoLine('INFO {"server_id":"NABC","version":"2.15.2"}')).toEqual({ serverId: "NABC", serverName: "", version: "2.15.2", jetstream: false });
  });

  it("reads jetstream as false unless it is exactly true", () => {
    expect(parseInfoLine('INFO {"server_id":"NABC","version":"2.15.2","jetstream":"true"}')?.jetstream).toBe(false);
  });

  it("gives an empty version when the server sends none", () => {
    expect(parseInfoLine('INFO {"server_id":"NABC"}')).toEqual({ serverId: "NABC", serverName: "", version: "", jetstream: false });
  });

  it("returns null for a line that is not INFO", () => {
    expect(parseInfoLine("HTTP/1.1 400 Bad Request")).toBeNull();
  });

  it("returns null for INFO with invalid JSON", () => {
    expect(parseInfoLine("INFO {server_id:")).toBeNull();
  });

  it("returns null for INFO whose JSON is not an object", () => {
    expect(parseInfoLine("INFO null")).toBeNull();
    expect(parseInfoLine('INFO "x"')).toBeNull();
  });

  it("returns null for INFO without a server_id", () => {
    expect(parseInfoLine('INFO {"version":"2.15.2"}')).toBeNull();
  });
});

describe("busInfo", () => {
  it("reads the INFO line of a bus server with persistence", async () => {
    const { url } = await serve((socket) => socket.write('INFO {"server_id":"X","version":"2.15.2","jetstream":true}\r\n'));
    expect(await busInfo(url, 2000)).toEqual({ serverId: "X", serverName: "", version: "2.15.2", jetstream: true });
  });

  it("reports jetstream false for a bus server without persistence", async () => {
    const { url } = await serve((socket) => socket.write('INFO {"server_id":"X","version":"2.15.2"}\r\n'));
    expect(await busInfo(url, 2000)).toEqual({ serverId: "X", serverName: "", version: "2.15.2", jetstream: false });
  });

  it("reads an INFO line that arrives in several pieces", async () => {
    const { url } = await serve((socket) => {
      socket.write('INFO {"server_id":"X",');
      setTimeout(() => socket.write('"version":"2.15.2","jetstream":true}\r\n'), 20);
    });
    expect(await busInfo(url, 2000)).toEqual({ serverId: "X", serverName: "", version: "2.15.2", jetstream: true });
  });

  it("rejects with 502 'nothing listens' when the connection is refused", async () => {
    const port = await freePort();
    const err = await refusal(busInfo(`nats://127.0.0.1:${port}`, 2000));
    expect(err.status).toBe(502);
    expect(err.message).toBe(`nothing listens on 127.0.0.1:${port} (connection refused)`);
  });

  it("rejects with 504 at about timeoutMs when the server accepts and says nothing", async () => {
    const { url, port } = await serve(() => {});
    const started = Date.now();
    const err = await refusal(busInfo(url, 200));
    const elapsed = Date.now() - started;
    expect(err.status).toBe(504);
    expect(err.message).toBe(`127.0.0.1:${port} accepted no bus handshake within 200 ms`);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
  });

  it("rejects with 502 'not as a bus server' when the server writes something other than INFO", async () => {
    const { url, port } = await serve((socket) => socket.write("HTTP/1.1 400 Bad Request\r\n\r\n"));
    const err = await refusal(busInfo(url, 2000));
    expect(err.status).toBe(502);
    expect(err.message).toBe(`127.0.0.1:${port} answers, but not as a bus server`);
  });

  it("rejects with 502 when the server sends more than 64 KiB without a line end", async () => {
    const { url } = await serve((socket) => socket.write("x".repeat(70 * 1024)));
    const err = await refusal(busInfo(url, 2000));
    expect(err.status).toBe(502);
    expect(err.message).toContain("not as a bus server");
  });

  it("rejects with 502 when the server closes the connection at once", async () => {
    const { url, port } = await serve((socket) => socket.end());
    const err = await refusal(busInfo(url, 2000));
    expect(err.status).toBe(502);
    expect(err.message).toBe(`127.0.0.1:${port} closed the connection before its INFO line`);
  });

  it("rejects with 400 before dialling when the URL is not a URL", async () => {
    // busAddress throws synchronously inside busInfo, so the caller sees a throw rather than a rejection.
    expect(() => busInfo("not a url", 200)).toThrow(HttpError);
  });
});
