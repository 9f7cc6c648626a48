// (d) A long-running signer on 127.0.0.1. Prints {"port": N} once listening.
// - Loopback is reachable by every local process, so each request must carry the bearer token given in the
//   SIGNER_TOKEN environment variable (environment, not argv: argv is world-readable).
// - It exits when its stdin reaches EOF. The parent holds the write end of that pipe, and the kernel closes it
//   however the parent dies (even SIGKILL), so the signer can never be orphaned.
import { timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { runOps } from "./ops.mjs";

if (!process.env.SIGNER_TOKEN) {
  console.error("signer-server: SIGNER_TOKEN is required");
  process.exit(2);
}
const expected = Buffer.from(`Bearer ${process.env.SIGNER_TOKEN}`);
const authorized = (header = "") => {
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
};

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    if (req.method !== "POST" || !authorized(req.headers.authorization)) return res.writeHead(401).end();
    try {
      res.writeHead(200, { "content-type": "application/json" }).end(runOps(Buffer.concat(chunks).toString()));
    } catch (err) {
      res.writeHead(400).end(String(err.message));
    }
  });
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));

process.stdin.on("end", () => process.exit(0)).resume();
