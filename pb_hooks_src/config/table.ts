// The key table of docs/configuration.md, generated from keys.ts (scripts/config-table.mjs writes it,
// table.test.ts fails when the document is out of date). Documentation only: the hooks never import it.
import { CONFIG_KEYS, envName, keyInfo, type ConfigValue } from "./keys";

const BEGIN = "<!-- keys:begin (generated from pb_hooks_src/config/keys.ts by scripts/config-table.mjs) -->";
const END = "<!-- keys:end -->";

export function keysTable(): string {
  const rows = CONFIG_KEYS.map((key) => {
    const { type, default: value, meaning } = keyInfo(key);
    return `| \`${key}\` | \`${envName(key)}\` | ${type} | ${formatDefault(value)} | ${meaning} |`;
  });
  return ["| Key | Environment variable | Type | Default | Meaning |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** The document with the text between the markers replaced by the current table. */
export function withKeysTable(doc: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`the document lacks the markers ${BEGIN} ... ${END}`);
  return `${doc.slice(0, begin)}${BEGIN}\n${keysTable()}\n${doc.slice(end)}`;
}

function formatDefault(value: ConfigValue): string {
  const text = Array.isArray(value) ? value.join(" ") : String(value);
  return text === "" ? "empty" : `\`${text}\``;
}
