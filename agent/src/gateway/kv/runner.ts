// What mirrors and relays share: one session per local connection (a new connection ends the previous
// session first), an attempt that throws made again after a pause, and the syncing/reason bookkeeping
// behind status(), logged on each change only.
import type { NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../../lib/log";
import { reasonOf, Session } from "./session";
import type { BucketStatus, Direction } from "./status";

export interface BucketSync {
  status(): BucketStatus;
  /** Starts the bucket's work on a new local connection (ending the work on the previous one). */
  attach(nc: NatsConnection): void;
  stop(): Promise<void>;
}

export interface Report {
  up(): void;
  down(reason: string): void;
}

export interface RunnerOptions {
  bucket: string;
  direction: Direction;
  logger: Logger;
  retryMs: number;
  /** Whether the leaf's uplink to the hub is attached. */
  uplinkUp(): boolean;
  /** Why the bucket is not syncing while the uplink is down. */
  islanded: string;
  /** Relays: the backlog's size and age. */
  backlog?: () => { pending: number; ageMs: number };
  /** The bucket's work on `nc`; returns once the session ends. */
  run(nc: NatsConnection, session: Session, report: Report): Promise<void>;
}

const NOT_CONNECTED = "not connected to the local leaf";

export function bucketRunner(options: RunnerOptions): BucketSync {
  const { bucket, direction, logger } = options;
  const what = direction === "hub_to_site" ? "kv mirror" : "kv relay";
  let current: { session: Session; done: Promise<void> } | undefined;
  let syncing = false;
  let reason = NOT_CONNECTED;
  const report: Report = {
    up() {
      if (!syncing) logger.info(`${what}: syncing`, { bucket });
      syncing = true;
    },
    down(why) {
      if (syncing || reason !== why) logger.warn(`${what}: not syncing`, { bucket, reason: why });
      syncing = false;
      reason = why;
    },
  };

  const keepRunning = async (nc: NatsConnection, session: Session) => {
    while (session.live) {
      try {
        await options.run(nc, session, report);
      } catch (err) {
        if (session.live) report.down(`restarting after: ${reasonOf(err)}`);
        await session.wait(options.retryMs);
      }
    }
  };

  const end = async () => {
    const previous = current;
    current = undefined;
    previous?.session.end();
    await previous?.done;
  };

  return {
    status() {
      // The work notices a lost uplink only between two requests to the hub, and one in flight waits for
      // its timeout: the status follows the uplink at once instead.
      const up = syncing && options.uplinkUp();
      const why = syncing ? options.islanded : reason;
      const status: BucketStatus = current ? { bucket, direction, syncing: up, reason: up ? undefined : why } : { bucket, direction, syncing: false, reason: NOT_CONNECTED };
      const backlog = options.backlog?.();
      if (backlog) Object.assign(status, { pending: backlog.pending, backlogAgeMs: backlog.ageMs });
      return status;
    },
    attach(nc) {
      const session = new Session();
      const done = end()
        .then(() => keepRunning(nc, session))
        .finally(() => {
          if (current?.session === session) current = undefined;
          report.down(NOT_CONNECTED);
        });
      current = { session, done };
      void nc.closed().then(() => session.end());
    },
    stop: end,
  };
}
