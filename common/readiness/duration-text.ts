// Duration text in the form of Go's time.Duration.String(): "1h2m3.5s", "1.5ms", "0s".

/** Formats milliseconds (possibly fractional, rounded to whole nanoseconds) like Go's Duration.String(). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error(`${ms} is not a finite duration`);
  const negative = ms < 0;
  const abs = Math.abs(ms);
  // Whole milliseconds and leftover nanoseconds kept apart so long uptimes stay exact.
  let wholeMs = Math.floor(abs);
  let fracNs = Math.round((abs - wholeMs) * 1e6);
  if (fracNs >= 1e6) {
    wholeMs += 1;
    fracNs -= 1e6;
  }
  const sign = negative && (wholeMs > 0 || fracNs > 0) ? "-" : "";
  if (wholeMs < 1000) {
    const ns = wholeMs * 1e6 + fracNs; // < 1e9, exact
    if (ns === 0) return "0s";
    if (ns < 1e3) return `${sign}${ns}ns`;
    if (ns < 1e6) return `${sign}${fraction(ns, 1e3, 3)}µs`;
    return `${sign}${fraction(ns, 1e6, 6)}ms`;
  }
  const totalSeconds = Math.floor(wholeMs / 1000);
  const subNs = (wholeMs % 1000) * 1e6 + fracNs;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const secondsText = `${seconds}${decimals(subNs, 9)}s`;
  if (totalSeconds < 60) return `${sign}${secondsText}`;
  if (totalSeconds < 3600) return `${sign}${minutes}m${secondsText}`;
  return `${sign}${hours}h${minutes}m${secondsText}`;
}

function fraction(value: number, unit: number, digits: number): string {
  return `${Math.floor(value / unit)}${decimals(value % unit, digits)}`;
}

/** ".5" for remainder 5 of 10 digits-wide, "" when zero; trailing zeros trimmed. */
function decimals(remainder: number, digits: number): string {
  if (remainder === 0) return "";
  let text = String(remainder);
  while (text.length < digits) text = "0" + text;
  return "." + text.replace(/0+$/, "");
}
