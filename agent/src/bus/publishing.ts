// The heartbeat and the telemetry the agent publishes (issue 10 item 4). A beat that finds no open
// connection is skipped, not queued: a heartbeat's value is that it is current. Telemetry goes through
// JetStream publish when a stream captures its subject (stored, acknowledged), else plain publish.
import { jetstream } from "@nats-io/jetstream";
import { formatDuration } from "../../../common/readiness/duration-text";
import type { ReadinessSource } from "../health/check";
import type { Logger } from "../lib/log";
import { AGENT_VERSION } from "../version";
import type { BusConnection } from "./connection";
import type { PersistenceProbe } from "./persistence";
import type { AgentSubjects } from "../../../common/bus/agent-subjects";
import { reasonOf } from "./errors";

export interface PublishingOptions {
  connection: Pick<BusConnection, "current" | "onConnected">;
  subjects: AgentSubjects;
  probe: PersistenceProbe;
  readiness: ReadinessSource;
  /** The system sample (telemetry/system.ts); undefined: no telemetry, heartbeats only. */
  sample?: () => Promise<object>;
  heartbeatMs: number;
  telemetryMs: number;
  startedAt: Date;
  logger: Logger;
}

export interface Heartbeat {
  version: string;
  uptime: string;
  time: string;
  /** The readiness report's top-level state (`unprobed` before the first probe). */
  state: string;
}

export function heartbeat(readiness: ReadinessSource, startedAt: Date, now: Date): Heartbeat {
  const { state } = readiness.report().body as { state?: unknown };
  return { version: AGENT_VERSION, uptime: formatDuration(now.getTime() - startedAt.getTime()), time: now.toISOString(), state: String(state) };
}

export function startPublishing(options: PublishingOptions): { stop(): void } {
  const { connection, subjects, logger } = options;
  const encode = (value: object) => new TextEncoder().encode(JSON.stringify(value));

  const beat = () => {
    const nc = connection.current();
    if (!nc) return;
    try {
      nc.publish(subjects.heartbeat, encode(heartbeat(options.readiness, options.startedAt, new Date())));
    } catch (err) {
      // The connection closed between current() and publish: the loop notices; a timer must not throw.
      logger.debug("bus: heartbeat not sent", { reason: reasonOf(err) });
    }
  };

  let sending = false;
  const sendTelemetry = async () => {
    const nc = connection.current();
    if (!nc || !options.sample || sending) return;
    sending = true;
    try {
      const payload = encode({ time: new Date().toISOString(), ...(await options.sample()) });
      const view = options.probe.last(nc) ?? (await options.probe.look(nc));
      if (view.usable && view.stream) await jetstream(nc).publish(subjects.telemetry, payload);
      else nc.publish(subjects.telemetry, payload);
    } catch (err) {
      // The stream may be gone or the hub busy: the next look (persistence check) tells; nothing to retry.
      logger.debug("bus: telemetry not stored", { reason: reasonOf(err) });
    } finally {
      sending = false;
    }
  };

  // A first beat as soon as a connection opens: subscribers see the agent back without waiting a period.
  connection.onConnected(() => beat());
  const timers = [setInterval(beat, options.heartbeatMs), setInterval(() => void sendTelemetry(), options.telemetryMs)];
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
