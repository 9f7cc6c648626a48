// Rewrites the key table of docs/configuration.md and README.md from pb_hooks_src/config/keys.ts (the one
// list of keys).
// Usage: node scripts/config-table.mjs
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

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

for (const name of ["docs/configuration.md", "README.md"]) {
  const path = join(root, name);
  const doc = readFileSync(path, "utf8");
  const updated = withKeysTable(doc);
  if (updated === doc) {
    console.log(`${name}: key table up to date`);
  } else {
    writeFileSync(path, updated);
    console.log(`${name}: key table rewritten`);
  }
}
