// The agent's subjects (issue 10 item 4): `<prefix>.<code>.heartbeat`, `.telemetry`, `.cmd.<name>`.
// The Thing code is one subject token; the prefix may have several (`site.agents`).
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

export function agentSubjects(prefix: string, code: string): AgentSubjects {
  if (!prefix.split(".").every((t) => TOKEN.test(t))) throw new Error(`bus.subject_prefix ${JSON.stringify(prefix)} is not a subject without wildcards`);
  if (!TOKEN.test(code)) throw new Error(`the Thing code ${JSON.stringify(code)} cannot be a subject token`);
  const base = `${prefix}.${code}`;
  return {
    heartbeat: `${base}.heartbeat`,
    telemetry: `${base}.telemetry`,
    telemetryOfAll: `${prefix}.*.telemetry`,
    command: { health: `${base}.cmd.health`, ping: `${base}.cmd.ping`, rotateCreds: `${base}.cmd.rotate_creds` },
    commands: `${base}.cmd.*`,
  };
}
