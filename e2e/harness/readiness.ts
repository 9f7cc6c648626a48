// Reading GET /api/ready in tests: one answer, or polling until the served snapshot says what a test waits for.
import type { CheckEntry, NotProbedBody, ReadinessBody } from "../../pb_hooks_src/observability/readiness/report";

export interface ReadyAnswer {
  status: number;
  cacheControl: string | null;
  body: ReadinessBody | NotProbedBody;
}

export async function getReady(url: string, headers: Record<string, string> = {}): Promise<ReadyAnswer> {
  const response = await fetch(`${url}/api/ready`, { headers });
  return { status: response.status, cacheControl: response.headers.get("cache-control"), body: (await response.json()) as ReadinessBody };
}

/** The check `name` of a probed body (throws on a body without it). */
export function checkOf(body: ReadinessBody | NotProbedBody, name: string): CheckEntry {
  const found = (body.checks as CheckEntry[]).find((c) => c.name === name);
  if (!found) throw new Error(`no check ${name} in ${JSON.stringify(body)}`);
  return found;
}

/**
 * Polls until a probed snapshot satisfies `wanted` (snapshots probed before `after`, a Date, are ignored:
 * they may predate the change under test). Fails with the last body seen.
 */
export async function readyWhen(
  url: string,
  wanted: (body: ReadinessBody, status: number) => boolean,
  options: { after?: Date; withinMs?: number } = {},
): Promise<{ status: number; body: ReadinessBody }> {
  const deadline = Date.now() + (options.withinMs ?? 20_000);
  let last: ReadyAnswer | undefined;
  for (;;) {
    last = await getReady(url);
    const body = last.body;
    const fresh = body.checked !== null && (!options.after || Date.parse(body.checked) > options.after.getTime());
    if (fresh && wanted(body as ReadinessBody, last.status)) return { status: last.status, body: body as ReadinessBody };
    if (Date.now() > deadline) throw new Error(`readiness never matched; last answer ${last.status}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** readyWhen for one check's state. */
export function checkBecomes(url: string, name: string, state: string, options: { after?: Date; withinMs?: number } = {}) {
  return readyWhen(url, (body) => checkOf(body, name).state === state, { after: new Date(), ...options });
}
