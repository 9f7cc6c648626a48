// The key tables of the docs, generated from a key table (scripts/config-table.mjs writes them; a test
// fails when a document is out of date): the control plane's (keys.ts) in docs/configuration.md and
// README.md, the agent's (agent/src/config/keys.ts) in agent/README.md. Documentation only: no deployable
// imports it.
import type { ConfigValue, KeyTable } from "./key-table";

const END = "<!-- keys:end -->";

function beginMarker(source: string): string {
  return `<!-- keys:begin (generated from ${source} by scripts/config-table.mjs) -->`;
}

export function keysTable(table: KeyTable<string>): string {
  const rows = table.keys.map((key) => {
    const { type, default: value, meaning } = table.info(key);
    return `| \`${key}\` | \`${table.envName(key)}\` | ${type} | ${formatDefault(value)} | ${meaning} |`;
  });
  return ["| Key | Environment variable | Type | Default | Meaning |", "|---|---|---|---|---|", ...rows].join("\n");
}

/**
 * The document with the text between the markers replaced by the current table; `source` is the file the
 * table is generated from, as the begin marker names it.
 */
export function withKeysTable(doc: string, table: KeyTable<string>, source: string): string {
  const begin = beginMarker(source);
  const start = doc.indexOf(begin);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the document lacks the markers ${begin} ... ${END}`);
  return `${doc.slice(0, start)}${begin}\n${keysTable(table)}\n${doc.slice(end)}`;
}

function formatDefault(value: ConfigValue): string {
  const text = Array.isArray(value) ? value.join(" ") : String(value);
  return text === "" ? "empty" : `\`${text}\``;
}
