// The HTTP front: token first (so an unauthenticated caller learns nothing, not even which paths exist),
// then route, method, bounded body, handler. Every answer is JSON; errors are {error}.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { bearerMatches } from "./auth";
import { parseJsonObject, readBody } from "./body";
import { HttpError, errorResponse } from "./errors";
import type { Routes } from "./routes";

export interface ServerOptions {
  token: string;
  routes: Routes;
  maxBodyBytes: number;
}

export function createSidecarServer(options: ServerOptions): Server {
  const server = createServer((req, res) => {
    handle(options, req)
      .then((body) => send(res, 200, body))
      .catch((err: unknown) => {
        const { status, body } = errorResponse(err);
        send(res, status, body);
      });
  });
  // Loopback peers are quick; a stalled one should not hold a socket for Node's default 5 minutes.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  // Go's client keeps idle connections 90 s and reuses them without retrying a POST; closing an idle one
  // first (Node's default is 5 s) races with that reuse. Holding it longer lets Go always close first.
  server.keepAliveTimeout = 120_000;
  return server;
}

async function handle(options: ServerOptions, req: IncomingMessage): Promise<unknown> {
  if (!bearerMatches(req.headers.authorization, options.token)) throw new HttpError(401, "unauthorized");
  const route = options.routes.get(new URL(req.url ?? "/", "http://sidecar").pathname);
  if (!route) throw new HttpError(404, "no such endpoint");
  if (req.method !== route.method) throw new HttpError(405, `use ${route.method}`);
  const body = route.method === "POST" ? parseJsonObject(await readBody(req, options.maxBodyBytes)) : {};
  return route.handle(body);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    // A refused request's body is left unread; closing the connection spares Node from draining it.
    ...(status === 401 || status === 413 ? { connection: "close" } : {}),
  });
  res.end(text);
}
