// The body of GET /api/ready, rendered once per snapshot: of its fields only `uptime` changes between
// probes, so each request splices the current uptime into text kept from the first request that saw the
// snapshot. Load balancers poll this route hard; rendering and serializing the checks on every request
// cost as much as the rest of the request (docs/performance.md "Concurrent writers and the hook VM pool").
import { formatDuration } from "../../../common/readiness/duration-text";
import { readinessBody, type ReadinessInput } from "../../../common/readiness/report";
import type { ReadinessSnapshot } from "./snapshot";
import { httpStatus } from "../../../common/readiness/states";

export interface RenderedBody {
  status: number;
  json: string;
}

// JSON.stringify escapes the NULs, so no value of a check (which comes after uptime) can end the head early.
const UPTIME_MARK = "\u0000uptime\u0000";

/** Renders bodies of spec 2.3 for snapshots given as the stored JSON text; keeps the last one's parts. */
export function readyBodyRenderer(version: string) {
  let kept: { text: string; startedAtMs: number; status: number; head: string; tail: string } | undefined;
  return (snapshotText: string, startedAtMs: number, nowMs: number): RenderedBody => {
    if (!kept || kept.text !== snapshotText || kept.startedAtMs !== startedAtMs) {
      const snapshot = JSON.parse(snapshotText) as ReadinessSnapshot;
      const input: ReadinessInput = {
        results: snapshot.results,
        version,
        startedAt: new Date(startedAtMs),
        probedAt: new Date(snapshot.probedAtMs),
        probeTookMs: snapshot.tookMs,
        now: new Date(nowMs),
      };
      const body = readinessBody(input);
      const [head, tail] = JSON.stringify({ ...body, uptime: UPTIME_MARK }).split(JSON.stringify(UPTIME_MARK), 2);
      kept = { text: snapshotText, startedAtMs, status: httpStatus(body.state), head, tail };
    }
    return { status: kept.status, json: `${kept.head}${JSON.stringify(formatDuration(nowMs - startedAtMs))}${kept.tail}` };
  };
}
