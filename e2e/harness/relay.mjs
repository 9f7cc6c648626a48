// A byte relay for e2e tests: accepts on LISTEN and pipes each connection to TARGET, both ways, closing one
// side when the other closes. An endpoint is host:port (TCP) or an absolute path (a unix socket, which
// network namespaces share through the filesystem). Prints "listening" once bound. Plain JavaScript: it
// runs with node alone, under `ip netns exec` too.
//   node relay.mjs LISTEN TARGET
import { rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";

const [listen, target] = process.argv.slice(2);
if (!listen || !target) {
  process.stderr.write("usage: node relay.mjs LISTEN TARGET (host:port or /path/of.sock)\n");
  process.exit(2);
}

/** @param {string} spec */
function endpoint(spec) {
  if (spec.startsWith("/")) return { path: spec };
  const colon = spec.lastIndexOf(":");
  return { host: spec.slice(0, colon), port: Number(spec.slice(colon + 1)) };
}

const server = createServer((inbound) => {
  const outbound = createConnection(endpoint(target));
  inbound.pipe(outbound);
  outbound.pipe(inbound);
  const close = () => {
    inbound.destroy();
    outbound.destroy();
  };
  for (const socket of [inbound, outbound]) {
    socket.on("error", close);
    socket.on("close", close);
  }
});
const where = endpoint(listen);
if (where.path) rmSync(where.path, { force: true });
server.listen(where, () => process.stdout.write("listening\n"));
process.on("SIGTERM", () => process.exit(0));
