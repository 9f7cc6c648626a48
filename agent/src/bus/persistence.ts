// What the connected hub's persistence (JetStream) offers this account: usable or not, and which stream,
// if any, captures this agent's telemetry. The `persistence` check looks; telemetry publishing reads the
// last look for the connection it publishes on (a new connection is looked at afresh).
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { reasonOf } from "./errors";

export type PersistenceView =
  | { usable: false; reason: string }
  | { usable: true; stream: string | undefined };

export interface PersistenceProbe {
  /** One bounded look over `nc`; remembered for that connection. */
  look(nc: NatsConnection): Promise<PersistenceView>;
  /** The last look, if it was made over `nc`. */
  last(nc: NatsConnection): PersistenceView | undefined;
}

/** `timeoutMs` bounds a whole look (two requests), so it fits inside the check registry's bound. */
export function createPersistenceProbe(telemetrySubject: string, timeoutMs: number): PersistenceProbe {
  let remembered: { nc: NatsConnection; view: PersistenceView } | undefined;
  return {
    async look(nc) {
      const view = await lookAt(nc, telemetrySubject, timeoutMs);
      remembered = { nc, view };
      return view;
    },
    last: (nc) => (remembered?.nc === nc ? remembered.view : undefined),
  };
}

async function lookAt(nc: NatsConnection, subject: string, timeoutMs: number): Promise<PersistenceView> {
  let manager: Awaited<ReturnType<typeof jetstreamManager>>;
  try {
    // Asks for the account's JetStream info: fails when the server or the account has none.
    manager = await jetstreamManager(nc, { timeout: timeoutMs / 2 });
  } catch (err) {
    return { usable: false, reason: reasonOf(err) };
  }
  try {
    return { usable: true, stream: await manager.streams.find(subject) };
  } catch (err) {
    // "no stream matches subject" is the normal answer where the tenant keeps no telemetry.
    if (err instanceof Error && /no stream matches/i.test(err.message)) return { usable: true, stream: undefined };
    return { usable: false, reason: reasonOf(err) };
  }
}
