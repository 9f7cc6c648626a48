// Rewrites the key tables of docs/configuration.md and README.md from pb_hooks_src/config/keys.ts (the
// control plane's one list of keys), and of agent/README.md from agent/src/config/keys.ts (the agent's).
// Usage: node scripts/config-table.mjs
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// keys.ts is TypeScript: bundle the table module and the agent's keys in memory and import them.
const bundle = await build({
  stdin: {
    contents: 'export { withKeysTable } from "./pb_hooks_src/config/table.ts"; export { AGENT_KEYS } from "./agent/src/config/keys.ts";',
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  format: "esm",
  platform: "neutral",
  write: false,
  logLevel: "warning",
});
const source = Buffer.from(bundle.outputFiles[0].text).toString("base64");
const { withKeysTable, AGENT_KEYS } = await import(`data:text/javascript;base64,${source}`);

const agent = [AGENT_KEYS, "agent/src/config/keys.ts"];
for (const [name, table] of [["docs/configuration.md"], ["README.md"], ["agent/README.md", agent]]) {
  const path = join(root, name);
  const doc = readFileSync(path, "utf8");
  const updated = table === undefined ? withKeysTable(doc) : withKeysTable(doc, ...table);
  if (updated === doc) {
    console.log(`${name}: key table up to date`);
  } else {
    writeFileSync(path, updated);
    console.log(`${name}: key table rewritten`);
  }
}
