// The Streams screen's backend on the browser's bus connection: @nats-io/jetstream and @nats-io/kv are
// imported here, dynamically, so only this screen loads them (the other screens' budgets do not carry them).
import type { NatsConnection } from "@nats-io/nats-core";
import { jetStreamBackend, type StreamsBackend } from "../streams";

export async function openStreamsBackend(nc: NatsConnection): Promise<StreamsBackend> {
  const [{ jetstreamManager }, { Kvm }] = await Promise.all([import("@nats-io/jetstream"), import("@nats-io/kv")]);
  // jetstreamManager asks the account's JetStream info first: a refusal or no JetStream fails here, in words.
  const jsm = await jetstreamManager(nc);
  return jetStreamBackend(jsm, new Kvm(nc));
}
