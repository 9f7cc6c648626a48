// The cron syntax PocketBase's scheduler accepts (tools/cron of v0.39): a macro, or exactly five fields
// separated by single spaces, each a comma list of `*`, `n` or `a-b`, optionally `/step` (not after `n`).
// Checked at startup so a bad schedule is refused before PocketBase panics on registering it.

const MACROS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 6 },
];

/** Why `expr` is not a schedule PocketBase accepts, or undefined when it is. */
export function cronProblem(expr: string): string | undefined {
  if (MACROS.has(expr)) return undefined;
  const segments = expr.split(" ");
  if (segments.length !== FIELDS.length) {
    return "expected 5 fields separated by single spaces (minute hour day-of-month month day-of-week) or a macro such as @daily";
  }
  for (let i = 0; i < FIELDS.length; i++) {
    const { name, min, max } = FIELDS[i];
    for (const part of segments[i].split(",")) {
      if (!partIsValid(part, min, max)) return `${name} field ${JSON.stringify(segments[i])} is invalid (values ${min}-${max})`;
    }
  }
  return undefined;
}

function partIsValid(part: string, min: number, max: number): boolean {
  const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
  if (match === null) return false;
  const [, base, from, to, step] = match;
  if (step !== undefined && (Number(step) < 1 || Number(step) > max)) return false;
  if (base === "*") return true;
  if (to === undefined) return step === undefined && Number(from) >= min && Number(from) <= max;
  return Number(from) >= min && Number(to) >= Number(from) && Number(to) <= max;
}
