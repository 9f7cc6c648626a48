import type { NatsConnection } from "@nats-io/transport-node";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../lib/log";
import { bucketRunner } from "./runner";

/** A connection that stays open until the test ends it. */
function openConnection(): { nc: NatsConnection; close(): void } {
  let close = () => undefined as void;
  const closed = new Promise<void>((resolve) => (close = resolve));
  return { nc: { closed: () => closed } as unknown as NatsConnection, close };
}

describe("bucketRunner status", () => {
  it("stops saying syncing as soon as the uplink is down, while a request to the hub is still in flight", async () => {
    let uplink = true;
    let release = () => undefined as void;
    const inFlight = new Promise<void>((resolve) => (release = resolve));
    const runner = bucketRunner({
      bucket: "orders",
      direction: "site_to_hub",
      logger: createLogger(() => undefined),
      retryMs: 10,
      uplinkUp: () => uplink,
      islanded: "the hub uplink is down (islanded)",
      async run(_nc, session, report) {
        report.up();
        // A hub request that will only answer with its timeout.
        await inFlight;
        session.end();
      },
    });
    const { nc, close } = openConnection();
    runner.attach(nc);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runner.status()).toEqual({ bucket: "orders", direction: "site_to_hub", syncing: true, reason: undefined });

    uplink = false;
    expect(runner.status()).toEqual({ bucket: "orders", direction: "site_to_hub", syncing: false, reason: "the hub uplink is down (islanded)" });
    uplink = true;
    expect(runner.status().syncing).toBe(true);

    release();
    close();
    await runner.stop();
  });
});
