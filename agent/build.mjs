// Bundles the agent (agent/src/main.ts) with its npm dependencies into one ES module file,
// agent/dist/agent.mjs, that `node` runs on a device: nothing to install there but Node itself.
import { build } from "esbuild";
import { chmodSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, "dist/agent.mjs");
const { version } = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));

await build({
  entryPoints: [join(here, "src/main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  define: { __AGENT_VERSION__: JSON.stringify(version) },
  // Bundled CommonJS dependencies call require(); an ES module has none unless it is made.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __agentRequire } from 'node:module'; const require = __agentRequire(import.meta.url);" },
});
chmodSync(outfile, 0o755);

// The budget: one file of at most 1 MB.
const BUDGET = 1024 * 1024;
const size = statSync(outfile).size;
if (size > BUDGET) throw new Error(`agent bundle is ${size} bytes, over the ${BUDGET}-byte budget`);
