// Rewrites the key table of docs/configuration.md from pb_hooks_src/config/keys.ts (the one list of keys).
// Usage: node scripts/config-table.mjs
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const docPath = join(root, "docs/configuration.md");

// keys.ts is TypeScript: bundle the table module in memory and import it.
const bundle = await build({
  entryPoints: [join(root, "pb_hooks_src/config/table.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  write: false,
  logLevel: "warning",
});
const source = Buffer.from(bundle.outputFiles[0].text).toString("base64");
const { withKeysTable } = await import(`data:text/javascript;base64,${source}`);

const doc = readFileSync(docPath, "utf8");
const updated = withKeysTable(doc);
if (updated === doc) {
  console.log("docs/configuration.md: key table up to date");
} else {
  writeFileSync(docPath, updated);
  console.log("docs/configuration.md: key table rewritten");
}
