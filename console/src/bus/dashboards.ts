// Dashboards of the visualizer: widgets bound to bus subjects, saved in this browser per organization
// (docs/decisions/453-dashboards-saved-in-local-storage.md), and the pure parts of rendering them.

export const WIDGET_KINDS = ["stat", "chart", "table", "badge"] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];

export const KIND_WORDS: Readonly<Record<WidgetKind, string>> = {
  stat: "Stat (latest value)",
  chart: "Time-series chart",
  table: "Latest messages",
  badge: "Status badge",
};

export interface Widget {
  id: string;
  kind: WidgetKind;
  title: string;
  subject: string;
  /** Dotted path into the JSON payload (`cpu.busy`); empty means the whole payload. */
  field: string;
}

/** Points a chart keeps, rows a table keeps: bounded, so an unattended screen's memory stays flat. */
export const CHART_POINTS = 60;
export const TABLE_ROWS = 10;

export function storageKey(organization: string): string {
  return `console.dashboard.${organization}`;
}

/** What a new organization's dashboard starts with: every agent's heartbeats and their state. */
export const DEFAULT_WIDGETS: readonly Widget[] = [
  { id: "heartbeat-state", kind: "badge", title: "Latest heartbeat state", subject: "agents.*.heartbeat", field: "state" },
  { id: "heartbeats", kind: "table", title: "Heartbeats", subject: "agents.*.heartbeat", field: "" },
];

function isWidget(value: unknown): value is Widget {
  if (typeof value !== "object" || value === null) return false;
  const w = value as Record<string, unknown>;
  return (
    typeof w.id === "string" && typeof w.title === "string" && typeof w.subject === "string" && w.subject !== "" &&
    typeof w.field === "string" && (WIDGET_KINDS as readonly unknown[]).includes(w.kind)
  );
}

/** The stored dashboard; the defaults when none was saved; a hand-edited value keeps its valid widgets. */
export function readDashboard(storage: Pick<Storage, "getItem">, organization: string): Widget[] {
  const raw = storage.getItem(storageKey(organization));
  if (raw === null) return [...DEFAULT_WIDGETS];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isWidget) : [];
  } catch {
    return [];
  }
}

export function writeDashboard(storage: Pick<Storage, "setItem">, organization: string, widgets: readonly Widget[]): void {
  storage.setItem(storageKey(organization), JSON.stringify(widgets));
}

/** The value at `field` of a JSON payload; the payload text itself when the field is empty or it is not JSON. */
export function fieldValue(payload: string, field: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return field === "" ? payload : undefined;
  }
  for (const key of field === "" ? [] : field.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function shown(value: unknown): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Appends and drops the oldest beyond `max`. */
export function bounded<T>(list: readonly T[], item: T, max: number): T[] {
  const next = [...list, item];
  return next.length > max ? next.slice(next.length - max) : next;
}

/** SVG polyline points of the values, scaled into width × height (y grows downwards). */
export function chartPoints(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return "";
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((v, i) => `${round(i * step)},${round(height - ((v - min) / span) * height)}`).join(" ");
}

const round = (n: number) => Math.round(n * 10) / 10;

export type Tone = "ok" | "warn" | "fail" | "unknown";

/** A badge's tone from a readiness-like value: ok/true, warn, fail/false; anything else unknown. */
export function toneOf(value: unknown): Tone {
  if (value === true || value === "ok") return "ok";
  if (value === "warn") return "warn";
  if (value === false || value === "fail") return "fail";
  return "unknown";
}
