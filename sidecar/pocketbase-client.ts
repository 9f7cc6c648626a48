// The prober's way back into PocketBase: JSON POSTs to its own listener with the sidecar's token, over
// kept-alive connections. Under `serve --https` the listener speaks TLS with a certificate for a domain,
// so the name is presented and the certificate not verified (the peer is this machine's own PocketBase).
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Post } from "./prober";
import type { ProbeSettings } from "../common/sidecar/protocol";

/** Bounds one request; the prober's own deadline is normally shorter. */
const REQUEST_TIMEOUT_MS = 60_000;

export function pocketBasePost(settings: Pick<ProbeSettings, "url" | "serverName">, token: string): Post {
  const base = new URL(settings.url);
  const tls = base.protocol === "https:";
  const agent = tls ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = tls ? httpsRequest : httpRequest;
  return (path, body) =>
    new Promise((resolve, reject) => {
      const text = JSON.stringify(body);
      const req = send(
        new URL(path, base),
        {
          method: "POST",
          agent,
          timeout: REQUEST_TIMEOUT_MS,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
          ...(tls ? { servername: settings.serverName, rejectUnauthorized: false } : {}),
        },
        (res) => {
          let answer = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (answer += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: answer }));
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(text);
    });
}
