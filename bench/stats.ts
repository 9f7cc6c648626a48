import { cpus } from "node:os";

export function percentile(sortedMs: number[], p: number): number {
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[index];
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** One line of figures: p50 and p95 (or the percentiles asked for) in ms over `samples`, with the machine's core count. */
export function report(name: string, samples: number[], percentiles: readonly number[] = [50, 95]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const figures = sorted.length === 0 ? "no samples" : percentiles.map((p) => `p${p}=${percentile(sorted, p).toFixed(2)} ms`).join(" ");
  const line = `${name}: n=${samples.length} ${figures} (cores=${cpus().length})`;
  console.log(line);
  return line;
}

/** Times `action` `iterations` times after `warmup` untimed runs. */
export async function measure(iterations: number, warmup: number, action: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await action(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await action(warmup + i);
    samples.push(performance.now() - start);
  }
  return samples;
}
