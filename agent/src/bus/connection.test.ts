// The connection's state between adopting creds and the end of the first attempt. A hub stand-in that
// accepts TCP and never greets holds the attempt open, the way a slow hub or link does at start.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../lib/log";
import { until } from "../lib/test-support";
import { startBusConnection, type BusConnection } from "./connection";

let silent: Server | undefined;
const accepted: Socket[] = [];
let connection: BusConnection | undefined;
afterEach(async () => {
  await connection?.stop();
  for (const socket of accepted.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  connection = silent = undefined;
});

async function silentHub(): Promise<string> {
  silent = createServer((socket) => void accepted.push(socket));
  await new Promise<void>((resolve) => silent!.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return `127.0.0.1:${address.port}`;
}

describe("startBusConnection", () => {
  it("says it is connecting from the moment it has creds until the first attempt ends, then why it failed", async () => {
    connection = startBusConnection({
      servers: [await silentHub()],
      name: "TH-1",
      logger: createLogger(() => undefined),
      onAuthError: () => undefined,
      dialTimeoutMs: 400,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    expect(connection.state()).toMatchObject({ connected: false, kind: "no_creds" });
    connection.useCreds("creds text the silent hub never asks for");
    expect(connection.state()).toMatchObject({ connected: false, kind: "connecting", reason: "first attempt in progress" });
    await new Promise((r) => setTimeout(r, 150));
    expect(connection.state()).toMatchObject({ kind: "connecting" });
    await until(() => connection!.state().connected === false && (connection!.state() as { kind: string }).kind !== "connecting", 3_000);
    expect(connection.state()).toMatchObject({ connected: false, kind: "timeout" });
  });
});
