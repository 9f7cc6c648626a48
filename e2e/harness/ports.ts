import { createServer, type Server } from "node:net";

/** `count` distinct TCP ports that were free on the loopback interface a moment ago. */
export async function freePorts(count: number): Promise<number[]> {
  // All listeners stay open until every port is taken, so the system cannot hand one out twice.
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen());
    return servers.map((s) => {
      const address = s.address();
      return typeof address === "object" && address ? address.port : 0;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
