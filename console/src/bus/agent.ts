// The agents' subjects (common/bus/agent-subjects.ts, under the default prefix) and the shapes the live
// view reads from them. Pure.
import { DEFAULT_SUBJECT_PREFIX, agentSubjects, everyAgentSubjects } from "../../../common/bus/agent-subjects";
import type { CheckEntry, ReadinessBody } from "../../../common/readiness/report";

const everyAgent = everyAgentSubjects(DEFAULT_SUBJECT_PREFIX);
/** What the live view subscribes to first: every agent's heartbeats and telemetry samples. */
export const DEFAULT_LIVE_SUBJECTS = [everyAgent.heartbeat, everyAgent.telemetry] as const;

export function healthSubject(thingCode: string): string {
  return agentSubjects(DEFAULT_SUBJECT_PREFIX, thingCode).command.health;
}

/**
 * The readiness body (spec 2.3), as `cmd.health` and `/ready` answer it, read leniently: a state this
 * console does not know (an agent newer than it, `unprobed`) is shown as it comes.
 */
export interface Readiness extends Omit<ReadinessBody, "state" | "checks"> {
  state: string;
  checks: Array<Omit<CheckEntry, "state"> & { state: string }>;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** The body when it has the readiness shape, else null (another responder answered the subject). */
export function parseReadiness(body: string): Readiness | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const r = value as Record<string, unknown>;
  if (typeof r.ready !== "boolean" || typeof r.state !== "string" || !Array.isArray(r.checks)) return null;
  const checks = r.checks
    .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null && typeof (c as Record<string, unknown>).name === "string")
    .map((c) => ({ name: text(c.name), state: text(c.state), detail: text(c.detail) || undefined, fix: text(c.fix) || undefined, took: text(c.took) }));
  return { ready: r.ready, state: r.state, version: text(r.version), uptime: text(r.uptime), took: text(r.took), checked: text(r.checked), checks };
}

export type ParsedSubjects = { ok: true; subjects: string[] } | { ok: false; error: string };

/** Subjects as typed, separated by spaces or commas: dot-separated tokens, `*` a token, `>` only last. */
export function parseSubjects(typed: string): ParsedSubjects {
  const subjects = [...new Set(typed.split(/[\s,]+/).filter((s) => s !== ""))];
  if (subjects.length === 0) return { ok: false, error: "Enter a subject, for example agents.*.heartbeat." };
  for (const subject of subjects) {
    const tokens = subject.split(".");
    const bad = tokens.some((t, i) => t === "" || (t.includes(">") && (t !== ">" || i !== tokens.length - 1)) || (t.includes("*") && t !== "*"));
    if (bad) return { ok: false, error: `“${subject}” is not a subject: dot-separated tokens, * for one token, > only at the end.` };
  }
  return { ok: true, subjects };
}

/** A message's payload as shown in a list: at most `max` characters. */
export function preview(payload: string, max = 240): string {
  return payload.length > max ? `${payload.slice(0, max - 1)}…` : payload;
}
