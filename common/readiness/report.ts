// Body of GET /api/ready (spec 2.3). Pure: runs in goja and in Node.

import { formatDuration } from "./duration-text";
import { worstState, type CheckState } from "./states";

export { formatDuration };

export interface CheckResult {
  name: string;
  state: CheckState;
  detail?: string;
  /** A command where one exists, else prose. Filled with GENERIC_FIX on a non-ok state when missing. */
  fix?: string;
  tookMs: number;
}

export interface CheckEntry {
  name: string;
  state: CheckState;
  detail?: string;
  fix?: string;
  took: string;
}

export interface ReadinessBody {
  ready: boolean;
  state: CheckState;
  version: string;
  uptime: string;
  took: string;
  checked: string;
  checks: CheckEntry[];
}

/**
 * Fix given to a non-ok check whose result carries none: the spec requires `fix` on every
 * non-ok check ("a command where one exists, else prose"), so a missing one becomes this prose.
 */
export const GENERIC_FIX = "Read this check's detail and the server log for the cause, correct it, and wait for the next probe.";

/** Fix of a check that panicked: the fault is in the check, not in the deployment. */
export const PANIC_FIX = "The check itself crashed; report it with the log of the process that ran it, which holds the stack trace.";

export interface ReadinessInput {
  results: readonly CheckResult[];
  version: string;
  startedAt: Date;
  probedAt: Date;
  probeTookMs: number;
  now: Date;
}

/** The body of a probed snapshot: ready is false iff some check fails; checks sorted by name. */
export function readinessBody(input: ReadinessInput): ReadinessBody {
  const state = worstState(input.results.map((r) => r.state));
  const checks = [...input.results]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(checkEntry);
  return {
    ready: !input.results.some((r) => r.state === "fail"),
    state,
    version: input.version,
    uptime: formatDuration(input.now.getTime() - input.startedAt.getTime()),
    took: formatDuration(input.probeTookMs),
    checked: input.probedAt.toISOString(),
    checks,
  };
}

function checkEntry(result: CheckResult): CheckEntry {
  // Keys in the order of 2.3: name, state, detail, fix, took.
  const entry: Partial<CheckEntry> = { name: result.name, state: result.state };
  if (result.detail !== undefined && result.detail !== "") entry.detail = result.detail;
  const fix = result.fix !== undefined && result.fix !== "" ? result.fix : undefined;
  if (result.state !== "ok") entry.fix = fix ?? GENERIC_FIX;
  else if (fix !== undefined) entry.fix = fix;
  entry.took = formatDuration(result.tookMs);
  return entry as CheckEntry;
}

/** Top-level state of the body served before the first probe has finished. */
export const NOT_PROBED_STATE = "unprobed";
export const NOT_PROBED_DETAIL = "readiness has not been probed yet";

export interface NotProbedBody {
  ready: false;
  state: typeof NOT_PROBED_STATE;
  detail: string;
  version: string;
  uptime: string;
  took: string;
  checked: null;
  checks: [];
}

/**
 * Body served (with HTTP 503) before the first background probe completes. Choice: it keeps the
 * 2.3 fields so clients parse it alike, but is distinguishable from a failing check in three ways:
 * state is "unprobed" (not one of the four check states, so never "fail"), checks is empty (a
 * failing report always lists the failing check), and checked is null (no snapshot exists).
 * A top-level detail says so in words.
 */
export function notProbedBody(version: string, startedAt: Date, now: Date): NotProbedBody {
  return {
    ready: false,
    state: NOT_PROBED_STATE,
    detail: NOT_PROBED_DETAIL,
    version,
    uptime: formatDuration(now.getTime() - startedAt.getTime()),
    took: "0s",
    checked: null,
    checks: [],
  };
}

/** HTTP status of the not-probed body. */
export const NOT_PROBED_STATUS = 503;

/**
 * A fail result for a check that threw. The detail names the error's message only (first line),
 * never its stack trace.
 */
export function panicked(name: string, error: unknown, tookMs = 0): CheckResult {
  return { name, state: "fail", detail: `check panicked: ${errorMessage(error)}`, fix: PANIC_FIX, tookMs };
}

function errorMessage(error: unknown): string {
  let text: string;
  if (error instanceof Error) text = error.message;
  else if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    text = (error as { message: string }).message;
  } else {
    text = String(error);
  }
  const firstLine = text.split(/\r?\n/)[0].trim();
  return firstLine === "" ? "unknown error" : firstLine;
}
