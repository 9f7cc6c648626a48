import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendRequest } from "./http-request";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("sendRequest", () => {
  it("sends the method, headers and body, and answers the status and the body's text", async () => {
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        res.statusCode = 201;
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, length: req.headers["content-length"], body }));
      });
    });
    const answer = await sendRequest(`${url}/x?y=1`, { method: "POST", headers: { Authorization: "t" }, body: '{"é":1}', timeoutMs: 2_000 });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toEqual({ method: "POST", auth: "t", length: "8", body: '{"é":1}' });
  });

  it("rejects with an AbortError at the deadline when the server never answers", async () => {
    const url = await serve(() => {});
    await expect(sendRequest(url, { method: "GET", headers: {}, timeoutMs: 100 })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects with the socket's code when nothing listens", async () => {
    const url = await serve(() => {});
    servers.pop()?.close();
    await new Promise((r) => setTimeout(r, 20));
    await expect(sendRequest(url, { method: "GET", headers: {}, timeoutMs: 2_000 })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
