// Bundles bench/*.bench.ts (which reuse the e2e harness) into build/bench/*.mjs for plain Node.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
rmSync(join(root, "build/bench"), { recursive: true, force: true });
const entries = readdirSync(join(root, "bench")).filter((f) => f.endsWith(".bench.ts"));
await build({
  entryPoints: entries.map((f) => join(root, "bench", f)),
  outdir: join(root, "build/bench"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
  // The harness finds the repository from its own URL; keep it pointing at the sources.
  define: { "import.meta.url": JSON.stringify(`file://${join(root, "e2e/harness/x.ts")}`) },
});
