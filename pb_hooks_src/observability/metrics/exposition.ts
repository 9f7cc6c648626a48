// Prometheus text exposition format 0.0.4 (spec 4.3: "text exposition format of a metrics scraper"). Pure:
// runs in goja and in Node.

/** Escapes a label value per the text exposition format: backslash, double quote, newline. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** Formats a sample value: numbers plainly, NaN and infinities as the format spells them. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type MetricType = "gauge" | "counter" | "histogram";

export interface Sample {
  /** Appended to the family name: "_bucket", "_sum", "_count" of a histogram; empty otherwise. */
  suffix?: string;
  labels?: ReadonlyArray<readonly [string, string]>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
}

/**
 * The family's lines: HELP, TYPE, then one line per sample. A family without samples renders nothing, so
 * a collector that could not look leaves its series absent rather than zero (spec 4.3 rule 4).
 */
export function renderFamily(family: MetricFamily): string[] {
  if (family.samples.length === 0) return [];
  const lines = [`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`];
  for (const sample of family.samples) {
    const labels = sample.labels && sample.labels.length > 0
      ? `{${sample.labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`
      : "";
    lines.push(`${family.name}${sample.suffix ?? ""}${labels} ${formatValue(sample.value)}`);
  }
  return lines;
}

/** One gauge or counter family; `samples` empty means absent. */
export function family(name: string, type: MetricType, help: string, samples: readonly Sample[]): MetricFamily {
  return { name, type, help, samples };
}

/** A family with exactly one unlabelled sample. */
export function single(name: string, type: MetricType, help: string, value: number): MetricFamily {
  return family(name, type, help, [{ value }]);
}

/** The response body: every line ended by a newline, as the format requires. */
export function renderExposition(lines: readonly string[]): string {
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
