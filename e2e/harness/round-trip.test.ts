// busAccepts against a stand-in for nats-server that speaks just enough of the client protocol: it
// greets, answers the PING that completes the connect, and then either answers the next PING or closes
// the socket under it, as nats-server does to a connection whose account is withdrawn at that moment.
import { createServer, type Server } from "node:net";
import { createUser } from "@nats-io/nkeys";
import { afterEach, expect, it } from "vitest";
import { busAccepts } from "./bus";

const INFO = { server_id: "stand-in", server_name: "stand-in", version: "2.12.0", proto: 1, max_payload: 1_048_576, headers: true };
const CREDS = `-----BEGIN NATS USER JWT-----
stand.in.jwt
------END NATS USER JWT------

-----BEGIN USER NKEY SEED-----
${new TextDecoder().decode(createUser().getSeed())}
------END USER NKEY SEED------
`;

let server: Server | undefined;
afterEach(() => void server?.close());

/** A server answering the connect's PING; the next one it answers too or, with `closeOnSecondPing`, closes under. */
async function standIn(closeOnSecondPing: boolean): Promise<string> {
  server = createServer((socket) => {
    socket.write(`INFO ${JSON.stringify(INFO)}\r\n`);
    let pings = 0;
    socket.on("data", (data) => {
      for (const _ of data.toString().matchAll(/^PING\r$/gm)) {
        pings += 1;
        if (pings > 1 && closeOnSecondPing) socket.destroy();
        else socket.write("PONG\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the stand-in has no TCP address");
  return `nats://127.0.0.1:${address.port}`;
}

it("admits creds the server answers", async () => {
  expect(await busAccepts(await standIn(false), CREDS)).toBe(true);
});

it("answers false, not never, when the server closes the connection under the round trip", async () => {
  expect(await busAccepts(await standIn(true), CREDS)).toBe(false);
}, 10_000);
