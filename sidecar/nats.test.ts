import { RequestError, TimeoutError, type NatsConnection } from "@nats-io/transport-node";
import { describe, expect, it } from "vitest";
import { HttpError } from "./errors";
import { NatsPool, type Connect } from "./nats";

const CREDS = `-----BEGIN NATS USER JWT-----
eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVIn0.c2ln
------END NATS USER JWT------

-----BEGIN USER NKEY SEED-----
SUAIBDPBAUTWCWBKIO6XHQNINK5FWJW4OHLXC3HQ2KFE4PEJUA44CNHTC4
------END USER NKEY SEED------
`;

/** A fake connection: answers requests with `reply`, closes when told; `breakAll` makes every open one fail its calls with `err`. */
function fakeConnect(): { open: Connect; opened: () => number; closeAll: () => void; breakAll: (err: Error) => void } {
  const connections: { close: () => void; fail: (err: Error) => void }[] = [];
  const open: Connect = async () => {
    let closeNow: () => void = () => {};
    let failure: Error | undefined;
    const closed = new Promise<void>((resolve) => (closeNow = resolve));
    const answer = async <T>(value: T): Promise<T> => {
      if (failure) throw failure;
      return value;
    };
    const nc = {
      request: (_subject: string, payload: string) => answer({ string: () => `re:${payload}` }),
      flush: () => answer(undefined),
      closed: () => closed,
      close: async () => closeNow(),
    };
    connections.push({ close: closeNow, fail: (err) => (failure = err) });
    return nc as unknown as NatsConnection;
  };
  return {
    open,
    opened: () => connections.length,
    closeAll: () => connections.forEach((c) => c.close()),
    breakAll: (err) => connections.forEach((c) => c.fail(err)),
  };
}

describe("NatsPool", () => {
  it("reuses one connection per target and opens a new one after it closes", async () => {
    const fake = fakeConnect();
    const pool = new NatsPool(fake.open);
    const target = { servers: ["nats://127.0.0.1:4222"] };
    expect(await pool.request(target, "s", "a", 1000)).toBe("re:a");
    expect(await pool.request(target, "s", "b", 1000)).toBe("re:b");
    expect(fake.opened()).toBe(1);
    await pool.request({ ...target, creds: CREDS }, "s", "c", 1000);
    expect(fake.opened()).toBe(2);
    fake.closeAll();
    await new Promise((r) => setTimeout(r, 10));
    await pool.request(target, "s", "d", 1000);
    expect(fake.opened()).toBe(3);
  });

  it("tries once more on a new connection when the cached one broke before the pool noticed", async () => {
    const fake = fakeConnect();
    const pool = new NatsPool(fake.open);
    const target = { servers: ["nats://127.0.0.1:4222"] };
    await pool.request(target, "s", "a", 1000);
    fake.breakAll(new RequestError("connection closed"));
    expect(await pool.request(target, "s", "b", 1000)).toBe("re:b");
    fake.breakAll(new RequestError("connection closed"));
    expect(await pool.ping(target, 1000)).toBeGreaterThanOrEqual(0);
    expect(fake.opened()).toBe(3);
  });

  it("does not try again after an answer from the bus, nor on a connection it has just opened", async () => {
    const fake = fakeConnect();
    const pool = new NatsPool(fake.open);
    const target = { servers: ["nats://127.0.0.1:4222"] };
    await pool.request(target, "s", "a", 1000);
    fake.breakAll(new TimeoutError());
    const timedOut = await pool.request(target, "s", "b", 1000).catch((e: unknown) => e);
    expect((timedOut as HttpError).status).toBe(504);
    expect(fake.opened()).toBe(1);

    const broken = fakeConnect();
    const fresh = new NatsPool(async (options) => {
      const nc = await broken.open(options);
      broken.breakAll(new RequestError("connection closed"));
      return nc;
    });
    const lost = await fresh.request(target, "s", "c", 1000).catch((e: unknown) => e);
    expect((lost as HttpError).message).toBe("the bus at nats://127.0.0.1:4222 closed the connection before answering on s");
    expect(broken.opened()).toBe(1);
  });

  it("fails fast and plainly when the bus is down, without the creds", async () => {
    const pool = new NatsPool();
    const started = Date.now();
    const error = await pool.request({ servers: ["nats://127.0.0.1:1"], creds: CREDS }, "s", "p", 2000).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(502);
    expect((error as HttpError).message).toBe("the bus at nats://127.0.0.1:1 could not be reached: connection refused");
    await pool.closeAll();
  });
});
