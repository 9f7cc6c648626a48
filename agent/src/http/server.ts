// The agent's observability listener on observability.addr: GET /ready (the health snapshot) and
// GET /metrics (token by Bearer or Basic). Empty addr: no listener. A bind failure (port taken) is
// logged and the agent goes on without it: checks still run and log, the bus still answers cmd.health.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { CHALLENGE, UNAUTHORIZED_BODY, UNAUTHORIZED_STATUS, scrapeAllowed } from "../../../common/metrics/scrape-auth";
import type { ReadinessSource } from "../health/check";
import type { Logger } from "../lib/log";
import { listenAddress } from "../config/validate";
import type { AgentMetrics } from "./metrics";

export interface ObservabilityServerOptions {
  addr: string;
  metricsToken: string;
  readiness: ReadinessSource;
  metrics: AgentMetrics;
  logger: Logger;
}

export interface ObservabilityServer {
  /** The port listened on; undefined without a listener (empty addr, or the bind failed). */
  readonly port: number | undefined;
  close(): Promise<void>;
}

export async function startObservabilityServer(options: ObservabilityServerOptions): Promise<ObservabilityServer> {
  const none: ObservabilityServer = { port: undefined, close: async () => undefined };
  if (options.addr === "") {
    options.logger.info("observability listener off (observability.addr is empty)");
    return none;
  }
  const where = listenAddress(options.addr);
  if (where === undefined) throw new Error(`observability.addr ${JSON.stringify(options.addr)} is not host:port`);
  const server = createServer((request, response) => {
    handle(request, response, options).catch((err: unknown) => {
      options.logger.error("observability request failed", { path: request.url, error: (err as Error).message });
      if (!response.headersSent) respond(response, 500, "text/plain; charset=utf-8", "internal error\n");
      else response.destroy();
    });
  });
  // Slow or idle scrapers must not hold sockets for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  try {
    await listen(server, where.host, where.port);
  } catch (err) {
    options.logger.error("observability listener could not bind; /ready and /metrics are unavailable, the agent keeps running", {
      addr: options.addr,
      error: (err as Error).message,
    });
    return none;
  }
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : where.port;
  options.logger.info("observability listening", { addr: options.addr, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: host === "" ? undefined : host, port }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function handle(request: IncomingMessage, response: ServerResponse, options: ObservabilityServerOptions): Promise<void> {
  const path = (request.url ?? "/").split("?")[0];
  if (path !== "/ready" && path !== "/metrics") return respond(response, 404, "text/plain; charset=utf-8", "not found\n");
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    return respond(response, 405, "text/plain; charset=utf-8", "method not allowed\n");
  }
  if (path === "/ready") {
    const { status, body } = options.readiness.report();
    response.setHeader("Cache-Control", "no-store");
    return respond(response, status, "application/json", `${JSON.stringify(body)}\n`);
  }
  if (!scrapeAllowed(options.metricsToken, request.headers.authorization ?? "", constantTimeEqual)) {
    response.setHeader("WWW-Authenticate", CHALLENGE);
    return respond(response, UNAUTHORIZED_STATUS, "text/plain; charset=utf-8", UNAUTHORIZED_BODY);
  }
  const { contentType, text } = await options.metrics.render();
  response.setHeader("Cache-Control", "no-store");
  respond(response, 200, contentType, text);
}

function respond(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  response.end(response.req.method === "HEAD" ? undefined : body);
}

/** timingSafeEqual needs equal lengths: comparing digests keeps the time independent of both lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
