// Readiness as Prometheus text exposition (spec 4.3). Pure: runs in goja and in Node.

import { CHECK_STATES, CheckState } from "./states";

export interface StateResult {
  name: string;
  state: CheckState;
}

/** Escapes a label value per the text exposition format: backslash, double quote, newline. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** Formats a sample value: integers plainly, NaN and infinities as the format spells them. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/**
 * Exposition lines (no trailing newlines; join with "\n" and end with "\n") for platform_ready,
 * platform_check_state{name,state} (every check × every state, 1 on the current state),
 * platform_check_timestamp_seconds and platform_build_info{version}. Checks are sorted by name.
 */
export function readinessSeries(results: readonly StateResult[], version: string, probedAtSeconds: number): string[] {
  const ready = results.some((r) => r.state === "fail") ? 0 : 1;
  const sorted = [...results].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = [
    "# HELP platform_ready 1 when the control plane is ready (no check fails), 0 otherwise.",
    "# TYPE platform_ready gauge",
    `platform_ready ${ready}`,
    "# HELP platform_check_state Readiness check state: 1 on the current state, 0 on the others.",
    "# TYPE platform_check_state gauge",
  ];
  for (const result of sorted) {
    const name = escapeLabelValue(result.name);
    for (const state of CHECK_STATES) {
      lines.push(`platform_check_state{name="${name}",state="${state}"} ${result.state === state ? 1 : 0}`);
    }
  }
  lines.push(
    "# HELP platform_check_timestamp_seconds Unix time of the last readiness probe.",
    "# TYPE platform_check_timestamp_seconds gauge",
    `platform_check_timestamp_seconds ${formatValue(probedAtSeconds)}`,
    "# HELP platform_build_info Build information; value is always 1.",
    "# TYPE platform_build_info gauge",
    `platform_build_info{version="${escapeLabelValue(version)}"} 1`,
  );
  return lines;
}
