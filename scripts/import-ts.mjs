// Imports TypeScript modules of the tree into a script: esbuild bundles `contents` (export lines naming
// .ts files, relative to the repository root) in memory, and the bundle is imported as a data: URL.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function importTypeScript(contents) {
  const bundle = await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "warning",
  });
  const source = Buffer.from(bundle.outputFiles[0].text).toString("base64");
  return import(`data:text/javascript;base64,${source}`);
}
