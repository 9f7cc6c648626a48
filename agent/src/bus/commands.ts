// Requests the agent answers over the bus (issue 10 item 4): a fixed set, nothing that runs a command.
// cmd.health answers the readiness report (the /ready body, one registry), cmd.ping a pong, and
// cmd.rotate_creds asks platform sync to rotate and adopt the bus credential. Any other subject under
// the agent's cmd.* is ignored without a reply, as is a message without a reply subject.
import type { Msg, NatsConnection } from "@nats-io/transport-node";
import type { ReadinessSource } from "../health/check";
import type { Logger } from "../lib/log";
import { AGENT_VERSION } from "../version";
import type { BusConnection } from "./connection";
import type { AgentSubjects } from "../../../common/bus/agent-subjects";
import { reasonOf } from "./errors";

export interface CommandOptions {
  connection: Pick<BusConnection, "onConnected" | "current">;
  subjects: AgentSubjects;
  readiness: ReadinessSource;
  /** Platform sync's rotateBusCreds: POST /api/me/bus-creds/rotate, then adopt the new creds. */
  rotate(): Promise<void>;
  logger: Logger;
}

type Handler = () => Promise<object> | object;

export function startCommands(options: CommandOptions): void {
  const { subjects, logger } = options;
  const handlers = new Map<string, Handler>([
    [subjects.command.health, () => options.readiness.report().body],
    [subjects.command.ping, () => ({ pong: true, version: AGENT_VERSION, time: new Date().toISOString() })],
    [subjects.command.rotateCreds, rotateCreds(options)],
  ]);

  options.connection.onConnected((nc: NatsConnection) => {
    nc.subscribe(subjects.commands, {
      callback: (err, msg) => {
        if (err) return;
        const handler = handlers.get(msg.subject);
        if (!handler || !msg.reply) return;
        answer(options.connection, msg, handler, logger).catch((err: unknown) =>
          logger.warn("bus: command failed", { subject: msg.subject, reason: reasonOf(err) }),
        );
      },
    });
  });
}

function rotateCreds(options: CommandOptions): Handler {
  return async () => {
    try {
      await options.rotate();
      return { ok: true };
    } catch (err) {
      options.logger.warn("bus: cmd.rotate_creds failed", { reason: reasonOf(err) });
      return { ok: false, error: reasonOf(err) };
    }
  };
}

/**
 * The reply goes out on the connection open when the answer is ready: a rotation may have replaced the
 * one the request came in on (the requester's inbox is a subject of the account, reachable from either).
 */
async function answer(connection: Pick<BusConnection, "current">, msg: Msg, handler: Handler, logger: Logger): Promise<void> {
  const reply = msg.reply;
  if (!reply) return;
  const body = await handler();
  const nc = connection.current();
  if (!nc) {
    logger.debug("bus: command answered while disconnected", { subject: msg.subject });
    return;
  }
  try {
    nc.publish(reply, new TextEncoder().encode(JSON.stringify(body)));
  } catch (err) {
    logger.debug("bus: command reply not sent", { subject: msg.subject, reason: reasonOf(err) });
  }
}
