// A closed-loop load generator: `clients` concurrent clients, each on its own kept-alive connection,
// each sending its next request as soon as the previous answer is read. node:http rather than fetch:
// the generator shares the machine's two cores with the server, so it must cost as little as it can.
import { Agent, request } from "node:http";

export interface LoadResult {
  latenciesMs: number[];
  perSecond: number;
  /** Answers with a status outside 2xx, and transport errors. */
  errors: number;
}

export interface LoadRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: () => string;
  /** Whether an answer's status counts as served (default: 2xx; a conditional poll's 304 is one too). */
  accepts?: (status: number) => boolean;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** Runs `total` requests against `base` from `clients` concurrent clients. */
export async function load(base: string, clients: number, total: number, next: LoadRequest | (() => LoadRequest)): Promise<LoadResult> {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latenciesMs: number[] = [];
  let errors = 0;
  let issued = 0;
  const one = (spec: LoadRequest): Promise<boolean> =>
    new Promise((resolve) => {
      const payload = spec.body?.();
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: spec.method ?? "GET",
          path: spec.path,
          headers: payload === undefined ? spec.headers : { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...spec.headers },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve((spec.accepts ?? is2xx)(res.statusCode ?? 0)));
          res.on("error", () => resolve(false));
        },
      );
      req.on("error", () => resolve(false));
      req.end(payload);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (issued < total) {
        issued++;
        const spec = typeof next === "function" ? next() : next;
        const t = performance.now();
        const ok = await one(spec);
        latenciesMs.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { latenciesMs, perSecond: latenciesMs.length / seconds, errors };
}
