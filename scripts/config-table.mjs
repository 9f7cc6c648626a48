// Rewrites the key tables of docs/configuration.md and README.md from pb_hooks_src/config/keys.ts (the
// control plane's one list of keys), and of agent/README.md from agent/src/config/keys.ts (the agent's).
// Usage: node scripts/config-table.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importTypeScript, root } from "./import-ts.mjs";

// The key tables are TypeScript.
const { withKeysTable, PLATFORM_KEYS, AGENT_KEYS } = await importTypeScript(
  'export { withKeysTable } from "./common/config/docs-table.ts"; export { PLATFORM_KEYS } from "./pb_hooks_src/config/keys.ts"; export { AGENT_KEYS } from "./agent/src/config/keys.ts";',
);

const platform = [PLATFORM_KEYS, "pb_hooks_src/config/keys.ts"];
const agent = [AGENT_KEYS, "agent/src/config/keys.ts"];
for (const [name, table] of [["docs/configuration.md", platform], ["README.md", platform], ["agent/README.md", agent]]) {
  const path = join(root, name);
  const doc = readFileSync(path, "utf8");
  const updated = withKeysTable(doc, ...table);
  if (updated === doc) {
    console.log(`${name}: key table up to date`);
  } else {
    writeFileSync(path, updated);
    console.log(`${name}: key table rewritten`);
  }
}
