// Go duration text (time.ParseDuration): `15s`, `1m30s`, `500ms`, `1.5h`, `720h`, `0`.
// The bus server and the agent are Go, so operators write durations one way everywhere.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3, // U+00B5 micro sign
  "μs": 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

// Longer units first so `ms` is not read as `m` followed by `s`.
const COMPONENT = "(\\d+\\.?\\d*|\\.\\d+)(ns|us|µs|μs|ms|h|m|s)";
const WHOLE = new RegExp(`^[-+]?(?:${COMPONENT})+$`);

/** Milliseconds (possibly fractional) of a Go duration; throws an Error naming the text when invalid. */
export function parseDuration(text: string): number {
  if (/^[-+]?0$/.test(text)) return 0;
  if (!WHOLE.test(text)) {
    throw new Error(`${JSON.stringify(text)} is not a duration (examples: 15s, 1m30s, 500ms, 720h)`);
  }
  const components = new RegExp(COMPONENT, "g");
  let total = 0;
  for (let match = components.exec(text); match !== null; match = components.exec(text)) {
    total += Number(match[1]) * UNIT_MS[match[2]];
  }
  return text.startsWith("-") ? -total : total;
}

/** What is wrong with a setting that must be a duration above zero (the control plane's and the agent's), or undefined. */
export function positiveDurationProblem(text: string): string | undefined {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (err) {
    return `is invalid: ${(err as Error).message}`;
  }
  return ms > 0 ? undefined : `must be greater than zero, got ${JSON.stringify(text)}`;
}
