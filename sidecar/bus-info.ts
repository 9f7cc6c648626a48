// Whether a bus server listens at a URL, asked the way every NATS client learns it: the server sends one
// INFO line to each new connection before any authentication. Reachability stays apart from trust (the
// $SYS credential), so the readiness report can tell "nothing listens" from "it refuses us".
import { connect, type Socket } from "node:net";
import { HttpError } from "./errors";
import type { BusInfoResponse, BusNodesResponse } from "../common/sidecar/protocol";
import { withoutCredentials } from "../common/url-text";

const DEFAULT_PORT = 4222;
const MAX_INFO_BYTES = 64 * 1024;

/** host and port of a bus URL (nats://, tls://, ws-less schemes); the default port when none is given. */
export function busAddress(url: string): { host: string; port: number } {
  const refused = () => new HttpError(400, "server must be a URL such as nats://host:4222");
  // Without "scheme://", URL would read "host:4222" as a scheme with an empty host.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw refused();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused();
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1") || "127.0.0.1";
  return { host, port: parsed.port === "" ? DEFAULT_PORT : Number(parsed.port) };
}

/** Parses the first line a NATS server sends; null when it is not an INFO line. */
export function parseInfoLine(line: string): BusInfoResponse | null {
  if (!line.startsWith("INFO ")) return null;
  let info: unknown;
  try {
    info = JSON.parse(line.slice(5));
  } catch {
    return null;
  }
  if (typeof info !== "object" || info === null) return null;
  const { server_id: serverId, server_name: serverName, version, jetstream } = info as Record<string, unknown>;
  if (typeof serverId !== "string") return null;
  return { serverId, serverName: typeof serverName === "string" ? serverName : "", version: typeof version === "string" ? version : "", jetstream: jetstream === true };
}

/** Every node's INFO at once, so one node that does not answer costs the timeout once, not per node. */
export async function busNodes(urls: string[], timeoutMs: number): Promise<BusNodesResponse> {
  const answers = await Promise.allSettled(urls.map((url) => busInfo(url, timeoutMs)));
  return {
    nodes: answers.map((answer, index) => {
      const server = withoutCredentials(urls[index]);
      if (answer.status === "fulfilled") return { server, info: answer.value };
      return { server, problem: answer.reason instanceof HttpError ? answer.reason.message : String(answer.reason) };
    }),
  };
}

export function busInfo(url: string, timeoutMs: number): Promise<BusInfoResponse> {
  const { host, port } = busAddress(url);
  const where = `${host}:${port}`;
  return new Promise((resolve, reject) => {
    let text = "";
    const socket: Socket = connect({ host, port });
    const finish = (outcome: BusInfoResponse | HttpError) => {
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof HttpError) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => finish(new HttpError(504, `${where} accepted no bus handshake within ${timeoutMs} ms`)), timeoutMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      const end = text.indexOf("\r\n");
      if (end < 0 && text.length <= MAX_INFO_BYTES) return;
      const info = end < 0 ? null : parseInfoLine(text.slice(0, end));
      finish(info ?? new HttpError(502, `${where} answers, but not as a bus server`));
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      const reason = err.code === "ECONNREFUSED" ? "connection refused" : (err.code ?? "connection failed");
      finish(new HttpError(502, `nothing listens on ${where} (${reason})`));
    });
    socket.on("end", () => finish(new HttpError(502, `${where} closed the connection before its INFO line`)));
  });
}
