// A relay (site → hub): a watcher on the site bucket feeds the backlog; a worker takes the oldest
// pending keys, reads the site's latest and the hub's latest of each, writes to the hub's bucket (through
// the hub domain, over the leaf) only what differs, deletes and purges included, and confirms. The
// backlog's cursor is persisted under state_dir (backlog.ts explains why that loses no key).
import { jetstream, jetstreamManager, type StoredMsg } from "@nats-io/jetstream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../../lib/log";
import { Backlog, cursorFile, loadCursor, saveCursor } from "./backlog";
import { bucketRunner, type BucketSync, type Report } from "./runner";
import { isStreamNotFound, reasonOf, type Session } from "./session";
import { bucketSubjects, hubKeySubject, keyOf, keySubject, operationOf, sameEntry, siteRelayStream, streamName, writeHeaders, type KvEntry } from "./wire";

export interface RelayOptions {
  bucket: string;
  hubDomain: string;
  stateDir: string;
  logger: Logger;
  uplinkUp(): boolean;
  /** Between attempts while the hub side is missing or a write failed. */
  retryMs: number;
  /** Keys relayed at once (each costs three requests, two of them across the uplink). */
  concurrency: number;
  /** Bound of one request. */
  requestMs: number;
}

/** The cursor is written at most this often while keys flow (and always when a session ends). */
const PERSIST_EVERY_MS = 1_000;
const ISLANDED = "the hub uplink is down (islanded)";

/** How often an islanded relay looks at the uplink again. */
const UPLINK_LOOK_MS = 500;

export function startRelay(options: RelayOptions): BucketSync {
  const { bucket, hubDomain, logger } = options;
  const stream = streamName(bucket);
  const file = cursorFile(options.stateDir, bucket);
  let backlog: Backlog | undefined;
  let saved: { created: string; seq: number; at: number } | undefined;

  const persist = (created: string, force: boolean) => {
    if (!backlog) return;
    const seq = backlog.confirmedThrough();
    if (saved?.seq === seq && saved.created === created) return;
    if (!force && saved && Date.now() - saved.at < PERSIST_EVERY_MS) return;
    try {
      saveCursor(file, { created, seq });
      saved = { created, seq, at: Date.now() };
    } catch (err) {
      logger.error("kv relay: cannot persist the backlog cursor", { bucket, file, error: reasonOf(err) });
    }
  };

  async function run(nc: NatsConnection, session: Session, report: Report): Promise<void> {
    const site = await jetstreamManager(nc, { timeout: options.requestMs, checkAPI: false });
    const hub = await jetstreamManager(nc, { domain: hubDomain, timeout: options.requestMs, checkAPI: false });
    const js = jetstream(nc, { timeout: options.requestMs });

    // The site bucket: adopted when it exists, else created (site devices write into it).
    let created: string | undefined;
    while (session.live && created === undefined) {
      try {
        created = (await site.streams.info(stream).catch(async (err: unknown) => {
          if (!isStreamNotFound(err)) throw err;
          logger.info("kv relay: creating the site bucket", { bucket });
          return site.streams.add(siteRelayStream(bucket));
        })).created;
      } catch (err) {
        report.down(`site bucket unusable: ${reasonOf(err)}`);
        await session.wait(options.retryMs);
      }
    }
    if (created === undefined) return;

    const cursor = loadCursor(file, created);
    if (cursor.reset) logger.warn("kv relay: the site bucket is not the one the cursor belongs to; comparing every key again", { bucket });
    const pending = new Backlog(cursor.seq);
    backlog = pending;
    const consumer = await js.consumers.get(stream, { filter_subjects: [bucketSubjects(bucket)], deliver_policy: "by_start_sequence", opt_start_seq: cursor.seq + 1 });
    const messages = await consumer.consume();
    let watcherEnded = false;
    const watching = (async () => {
      for await (const msg of messages) {
        const key = keyOf(bucket, msg.subject);
        if (key !== undefined) pending.add(key, msg.seq);
        session.poke();
      }
    })()
      .catch((err: unknown) => logger.debug("kv relay: the watcher ended", { bucket, reason: reasonOf(err) }))
      .finally(() => {
        watcherEnded = true;
        session.poke();
      });

    const relayKey = async ([key, seq]: [string, number]) => {
      const subject = keySubject(bucket, key);
      const [atSite, atHub] = await Promise.all([site.streams.getMessage(stream, { last_by_subj: subject }), hub.streams.getMessage(stream, { last_by_subj: subject })]);
      const siteEntry = entryOf(atSite);
      if (!sameEntry(siteEntry, entryOf(atHub))) {
        const operation = siteEntry?.operation ?? "DEL";
        const marks = headers();
        for (const [name, value] of writeHeaders(operation)) marks.set(name, value);
        await js.publish(hubKeySubject(hubDomain, bucket, key), operation === "PUT" ? siteEntry?.value : undefined, { headers: marks, timeout: options.requestMs });
      }
      pending.confirm(key, atSite?.seq ?? seq);
    };

    try {
      while (session.live) {
        // A watcher that ended under a live connection (the site bucket deleted, say): start over.
        if (watcherEnded) throw new Error("the site bucket watcher ended");
        if (!options.uplinkUp()) {
          report.down(ISLANDED);
          persist(created, false);
          await session.wait(UPLINK_LOOK_MS);
          continue;
        }
        try {
          if (pending.size === 0) {
            // Idle: the hub side must exist for the relay to be syncing (a bucket created there later is picked up here).
            await hub.streams.info(stream);
            report.up();
            persist(created, false);
            await session.wait(options.retryMs);
            continue;
          }
          await Promise.all(pending.oldest(options.concurrency).map(relayKey));
          report.up();
          persist(created, false);
        } catch (err) {
          report.down(isStreamNotFound(err) ? `waiting for the hub bucket (no stream ${stream} in domain ${hubDomain})` : `cannot write to the hub: ${reasonOf(err)}`);
          persist(created, false);
          await session.wait(options.retryMs);
        }
      }
    } finally {
      await messages.close().catch(() => undefined);
      await watching;
      persist(created, true);
    }
  }

  return bucketRunner({ bucket, direction: "site_to_hub", logger, retryMs: options.retryMs, uplinkUp: options.uplinkUp, islanded: ISLANDED, backlog: () => ({ pending: backlog?.size ?? 0, ageMs: backlog?.ageMs() ?? 0 }), run });
}

function entryOf(msg: StoredMsg | null): KvEntry | undefined {
  return msg ? { operation: operationOf(msg.header), value: msg.data } : undefined;
}
