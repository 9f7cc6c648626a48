// One HTTP(S) request with a small body, on node:http/https, bounded in time as a whole (connection,
// answer and body). Not fetch: Node's fetch loads undici and its WASM parser on first use, ~20 MB of RSS
// the agent would keep for good (docs/performance.md, "Edge agent"); the agent's platform calls are a
// few JSON requests a minute.
import { request as plainRequest } from "node:http";
import { request as tlsRequest } from "node:https";

export interface HttpAnswer {
  status: number;
  text: string;
  /** A response header by its lower-case name (the first value when repeated). */
  header(name: string): string | undefined;
}

export interface HttpRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** Rejects with an AbortError at the deadline, or with the socket's error (its `code`: ECONNREFUSED, ...). */
export function sendRequest(url: string, init: HttpRequest): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? tlsRequest : plainRequest;
    const headers = init.body === undefined ? init.headers : { ...init.headers, "Content-Length": String(Buffer.byteLength(init.body)) };
    const req = send(target, { method: init.method, headers, signal: AbortSignal.timeout(init.timeoutMs) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("close", () => {
        const header = (name: string) => {
          const value = res.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        if (res.complete) resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), header });
        else reject(new Error("the answer was cut short"));
      });
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
