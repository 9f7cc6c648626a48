// Reading the prober's snapshot POST (sidecar/prober.ts → snapshotRoute). The sender is our own sidecar,
// but what enters the served report is still checked: every check exactly once, known states only. Pure.
import { RouteError } from "../../lib/errors";
import type { CheckResult } from "../../../common/readiness/report";
import { CHECK_STATES, type CheckState } from "../../../common/readiness/states";

export interface SnapshotPost {
  results: CheckResult[];
  tookMs: number;
}

export function parseSnapshotPost(value: unknown, checkNames: readonly string[]): SnapshotPost {
  const { results, tookMs } = (value ?? {}) as { results?: unknown; tookMs?: unknown };
  if (typeof tookMs !== "number" || !Number.isFinite(tookMs) || tookMs < 0) throw new RouteError(400, "tookMs must be a duration in milliseconds");
  if (!Array.isArray(results)) throw new RouteError(400, "results must be an array");
  const parsed = results.map(parseResult);
  const names = parsed.map((r) => r.name).sort();
  if (names.length !== checkNames.length || names.some((name, i) => name !== [...checkNames].sort()[i])) {
    throw new RouteError(400, `results must hold each of ${checkNames.join(", ")} exactly once`);
  }
  return { results: parsed, tookMs };
}

function parseResult(value: unknown): CheckResult {
  const r = (value ?? {}) as Record<string, unknown>;
  const optional = (v: unknown) => v === undefined || typeof v === "string";
  if (typeof r.name !== "string" || !CHECK_STATES.includes(r.state as CheckState) || typeof r.tookMs !== "number" || !optional(r.detail) || !optional(r.fix)) {
    throw new RouteError(400, "each result needs name, state (ok, warn, fail, skipped), tookMs, and optional detail and fix strings");
  }
  return {
    name: r.name,
    state: r.state as CheckState,
    ...(r.detail === undefined ? {} : { detail: r.detail as string }),
    ...(r.fix === undefined ? {} : { fix: r.fix as string }),
    tookMs: r.tookMs,
  };
}
