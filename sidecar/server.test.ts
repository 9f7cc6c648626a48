import { createPublicKey, verify } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createUser } from "@nats-io/nkeys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerMatches } from "./auth";
import { NatsPool } from "./nats";
import type { Ed25519KeypairResponse, NkeysResponse, X25519Response } from "../common/sidecar/protocol";
import { v1Routes } from "./routes";
import { createSidecarServer } from "./server";

const TOKEN = "t".repeat(48);
const LIMIT = 1024;
const server = createSidecarServer({ token: TOKEN, routes: v1Routes({ nats: new NatsPool(), nowSeconds: () => 1_800_000_000 }), maxBodyBytes: LIMIT });
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(path: string, body?: unknown, token = TOKEN): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text), text };
}

describe("bearerMatches", () => {
  it("accepts only the exact bearer token", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches("", TOKEN)).toBe(false);
  });
});

describe("sidecar server", () => {
  it("answers 401 to a missing or wrong token, before routing", async () => {
    expect((await call("/v1/health", undefined, "wrong")).status).toBe(401);
    expect((await call("/nowhere", undefined, "wrong")).status).toBe(401);
    expect(await call("/v1/health")).toMatchObject({ status: 200, json: { ok: true, pid: process.pid } });
  });

  it("answers 404 and 405", async () => {
    expect((await call("/v2/nothing", {})).status).toBe(404);
    expect((await call("/v1/nkeys")).status).toBe(405);
  });

  it("refuses a body over the limit with 413, declared or streamed", async () => {
    const big = JSON.stringify({ types: ["user"], pad: "x".repeat(LIMIT) });
    expect((await call("/v1/nkeys", big)).status).toBe(413);
    const response = await fetch(`${base}/v1/nkeys`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("never echoes secrets in errors", async () => {
    const seed = new TextDecoder().decode(createUser().getSeed());
    const cases = [
      `{"seed": "${seed}"`, // invalid JSON that contains a seed
      { seed: seed.slice(0, 20) + (seed[20] === "A" ? "B" : "A") + seed.slice(21), claims: { sub: "U" } },
      { seed, claims: { sub: "" } },
      { seed: Buffer.alloc(31).toString("base64"), message: "aGk=" },
    ];
    for (const [i, body] of cases.entries()) {
      const path = i === 3 ? "/v1/ed25519/sign" : "/v1/jwt";
      const result = await call(path, body);
      expect(result.status).toBe(400);
      expect(result.text).not.toContain(seed.slice(2, 20));
      expect(result.text).not.toContain(TOKEN);
    }
  });

  it("mints nkeys of each requested type, in order", async () => {
    const { status, json } = await call("/v1/nkeys", { types: ["operator", "account", "user", "cluster", "server"] });
    expect(status).toBe(200);
    const keys = json as NkeysResponse;
    expect(keys.map((k) => k.seed.slice(0, 2) + k.public[0])).toEqual(["SOO", "SAA", "SUU", "SCC", "SNN"]);
    expect((await call("/v1/public", { seed: keys[2].seed })).json).toEqual({ public: keys[2].public });
    expect((await call("/v1/nkeys", { types: ["curve"] })).status).toBe(400);
    expect((await call("/v1/nkeys", { types: [] })).status).toBe(400);
  });

  it("signs with a raw ed25519 seed, verifiable by node:crypto", async () => {
    const pair = (await call("/v1/ed25519/keypair", {})).json as Ed25519KeypairResponse;
    const message = Buffer.from("certificate details");
    const { signature } = (await call("/v1/ed25519/sign", { seed: pair.seed, message: message.toString("base64") })).json as { signature: string };
    const publicKey = createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(pair.public, "base64")]), format: "der", type: "spki" });
    expect(verify(null, message, publicKey, Buffer.from(signature, "base64"))).toBe(true);
  });

  it("makes X25519 key pairs", async () => {
    const pairs = (await call("/v1/x25519", { count: 3 })).json as X25519Response;
    expect(pairs).toHaveLength(3);
    for (const p of pairs) expect([Buffer.from(p.private, "base64").length, Buffer.from(p.public, "base64").length]).toEqual([32, 32]);
    expect((await call("/v1/x25519", { count: 0 })).status).toBe(400);
  });

  it("takes an account's claim to sign after its write only under serve, and only a record id", async () => {
    const refused = await call("/v1/bus/sign-later", { account: "abc123" });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ error: "claims are signed after their write only by the sidecar of serve" });
    const handed: string[] = [];
    const route = v1Routes({ nats: new NatsPool(), nowSeconds: () => 0, signClaimLater: (account) => handed.push(account) }).get("/v1/bus/sign-later");
    expect(route?.handle({ account: "abc123" })).toEqual({ queued: true });
    expect(() => route?.handle({ account: "../../etc" })).toThrow("account: a record id");
    expect(handed).toEqual(["abc123"]);
  });
});
