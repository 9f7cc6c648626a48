// The agent's subjects (issue 10 item 4): `<prefix>.<code>.heartbeat`, `.telemetry`, `.cmd.<name>`.
// The Thing code is one subject token; the prefix may have several (`site.agents`). The agent publishes
// and answers on them; the console's live view subscribes to them.

/** The agent's bus.subject_prefix unless configured otherwise; the console's live view assumes it. */
export const DEFAULT_SUBJECT_PREFIX = "agents";

export interface AgentSubjects {
  heartbeat: string;
  telemetry: string;
  /** What a stream must capture to store every agent's telemetry under this prefix. */
  telemetryOfAll: string;
  command: { health: string; ping: string; rotateCreds: string };
  /** The one wildcard the agent subscribes to for commands. */
  commands: string;
}

const TOKEN = /^[^\s.*>]+$/;

/** What a subscriber to every agent under `prefix` listens to. */
export function everyAgentSubjects(prefix: string): { heartbeat: string; telemetry: string } {
  return { heartbeat: `${prefix}.*.heartbeat`, telemetry: `${prefix}.*.telemetry` };
}

export function agentSubjects(prefix: string, code: string): AgentSubjects {
  if (!prefix.split(".").every((t) => TOKEN.test(t))) throw new Error(`bus.subject_prefix ${JSON.stringify(prefix)} is not a subject without wildcards`);
  if (!TOKEN.test(code)) throw new Error(`the Thing code ${JSON.stringify(code)} cannot be a subject token`);
  const base = `${prefix}.${code}`;
  return {
    heartbeat: `${base}.heartbeat`,
    telemetry: `${base}.telemetry`,
    telemetryOfAll: everyAgentSubjects(prefix).telemetry,
    command: { health: `${base}.cmd.health`, ping: `${base}.cmd.ping`, rotateCreds: `${base}.cmd.rotate_creds` },
    commands: `${base}.cmd.*`,
  };
}
