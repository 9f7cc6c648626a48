// Doubling with a cap: how long to wait before retrying something that keeps failing (a nebula that
// crashes, a platform that does not answer). Each caller keeps its own first delay and cap.

/** `firstMs` doubled `doublings` times (none when 0 or less), at most `maxMs`. */
export function doublingDelay(firstMs: number, doublings: number, maxMs: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, doublings));
}
