// Reading GET /api/ready in tests: one answer, or polling until the served snapshot says what a test waits for.
import type { CheckEntry, NotProbedBody, ReadinessBody } from "../../common/readiness/report";

export interface ReadyAnswer {
  status: number;
  cacheControl: string | null;
  body: ReadinessBody | NotProbedBody;
}

/** The control plane's GET /api/ready; `path` "/ready" reads an agent's. */
export async function getReady(url: string, headers: Record<string, string> = {}, path = "/api/ready"): Promise<ReadyAnswer> {
  const response = await fetch(`${url}${path}`, { headers });
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
  options: { after?: Date; withinMs?: number; path?: string } = {},
): Promise<{ status: number; body: ReadinessBody }> {
  const deadline = Date.now() + (options.withinMs ?? 20_000);
  let last: ReadyAnswer | undefined;
  for (;;) {
    // A process not listening yet (just started) is polled again like a snapshot that does not match yet.
    const answer = await getReady(url, {}, options.path).catch(() => undefined);
    last = answer ?? last;
    if (answer) {
      const body = answer.body;
      const fresh = body.checked !== null && (!options.after || Date.parse(body.checked) > options.after.getTime());
      if (fresh && wanted(body as ReadinessBody, answer.status)) return { status: answer.status, body: body as ReadinessBody };
    }
    if (Date.now() > deadline) throw new Error(`readiness never matched; last answer ${last ? `${last.status}: ${JSON.stringify(last.body)}` : "none (nothing listens)"}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** readyWhen for one check's state. */
export function checkBecomes(url: string, name: string, state: string, options: { after?: Date; withinMs?: number; path?: string } = {}) {
  return readyWhen(url, (body) => checkOf(body, name).state === state, { after: new Date(), ...options });
}
