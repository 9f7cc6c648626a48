// A mirror (hub → site): the site bucket is a JetStream mirror of the hub's bucket, created once the
// hub's bucket exists (looked for again every retry, so a bucket created at the hub later is picked up
// without a restart) with the hub bucket's history and limits; the leaf then copies by itself, and site
// readers read the site copy, islanded too. An existing site stream is adopted when it is this mirror and
// never replaced when it is not. Syncing: the uplink is up and the mirror reports recent contact, no error.
import { jetstreamManager, type StreamInfo } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../../lib/log";
import { bucketRunner, type BucketSync, type Report } from "./runner";
import { isStreamNotFound, reasonOf, type Session } from "./session";
import { isMirrorOf, siteMirrorStream, streamName } from "./wire";

export interface MirrorOptions {
  bucket: string;
  hubDomain: string;
  logger: Logger;
  uplinkUp(): boolean;
  /** Between looks at the mirror (and attempts while the hub side is missing). */
  retryMs: number;
  requestMs: number;
}

const ISLANDED = "the hub uplink is down (islanded): site readers get the last copy";

/** A mirror hears from its origin about once a second while linked (heartbeats); this much silence is lost contact. */
const STALE_CONTACT_NS = 10e9;

export function startMirror(options: MirrorOptions): BucketSync {
  const { bucket, hubDomain, logger } = options;
  const stream = streamName(bucket);

  async function run(nc: NatsConnection, session: Session, report: Report): Promise<void> {
    const site = await jetstreamManager(nc, { timeout: options.requestMs, checkAPI: false });
    const hub = await jetstreamManager(nc, { domain: hubDomain, timeout: options.requestMs, checkAPI: false });
    while (session.live) {
      const info = await site.streams.info(stream).catch((err: unknown) => {
        if (isStreamNotFound(err)) return undefined;
        throw err;
      });
      if (info === undefined) {
        await create(site, hub, report);
      } else {
        judge(info, report);
      }
      await session.wait(options.retryMs);
    }
  }

  async function create(site: Awaited<ReturnType<typeof jetstreamManager>>, hub: Awaited<ReturnType<typeof jetstreamManager>>, report: Report): Promise<void> {
    if (!options.uplinkUp()) return report.down("waiting for the hub uplink to create the site copy");
    let origin: StreamInfo;
    try {
      origin = await hub.streams.info(stream);
    } catch (err) {
      return report.down(isStreamNotFound(err) ? `waiting for the hub bucket (no stream ${stream} in domain ${hubDomain})` : `cannot read the hub bucket: ${reasonOf(err)}`);
    }
    await site.streams.add(siteMirrorStream(bucket, hubDomain, origin.config));
    logger.info("kv mirror: created the site copy", { bucket, hub_domain: hubDomain });
  }

  function judge(info: StreamInfo, report: Report): void {
    if (!isMirrorOf(info.config, bucket, hubDomain)) {
      return report.down(`the site already has a stream ${stream} that is not a mirror of the hub's bucket: remove it, or declare the bucket a relay`);
    }
    const mirror = info.mirror;
    if (!options.uplinkUp()) return report.down(ISLANDED);
    if (mirror?.error) return report.down(`the mirror reports: ${mirror.error.description}`);
    if (!mirror || mirror.active < 0 || mirror.active > STALE_CONTACT_NS) return report.down("no recent contact with the hub bucket");
    report.up();
  }

  return bucketRunner({ bucket, direction: "hub_to_site", logger, retryMs: options.retryMs, uplinkUp: options.uplinkUp, islanded: ISLANDED, run });
}
