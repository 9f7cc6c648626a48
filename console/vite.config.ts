// Builds the console into ../pb_public, which the stock PocketBase serves at / with index fallback
// (scripts/platform passes --publicDir). Each screen is its own chunk; the manifest feeds
// scripts/console-budget.mjs. Every script and stylesheet is also written precompressed (.br, .gz) for
// the hooks to serve (pb_hooks_src/console-page/assets.ts; docs/decisions/085-precompressed-console-assets.md).
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

/** The files a browser loads as text from assets/: the ones worth compressing. */
const COMPRESSIBLE = /\.(js|css)$/;

/**
 * Writes NAME.br (quality 11) and NAME.gz (level 9) beside each compressible output file, once at build
 * time: the serving side then spends no CPU on compression. A variant that is not smaller is not written,
 * so the hooks serve the identity file for it.
 */
function precompress(): Plugin {
  return {
    name: "console-precompress",
    apply: "build",
    writeBundle(options, bundle) {
      const dir = options.dir ?? "";
      for (const [file, output] of Object.entries(bundle)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const source = Buffer.from(output.type === "chunk" ? output.code : output.source);
        const variants = {
          br: brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
          gz: gzipSync(source, { level: 9 }),
        };
        for (const [extension, compressed] of Object.entries(variants)) {
          if (compressed.length < source.length) writeFileSync(join(dir, `${file}.${extension}`), compressed);
        }
      }
    },
  };
}

// A stylesheet Vite links into index.html for the entry's chunks.
const BUILT_STYLESHEET = /\s*<link rel="stylesheet" crossorigin href="\/assets\/[^"]+">/g;

/**
 * Moves the stylesheets Vite links after the entry script and its modulepreloads up before them. A browser
 * talks HTTP/1.1 to the binary, six connections at a time, and asks in document order: the first paint's
 * stylesheets went out only after six scripts had come back (decision 459).
 */
function stylesheetsFirst(): Plugin {
  return {
    name: "console-stylesheets-first",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html) {
        const sheets = html.match(BUILT_STYLESHEET) ?? [];
        const rest = html.replace(BUILT_STYLESHEET, "");
        return rest.replace(/(\s*)<script type="module"/, `${sheets.join("")}$1<script type="module"`);
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [svelte(), stylesheetsFirst(), precompress()],
  build: {
    outDir: fileURLToPath(new URL("../pb_public", import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    // Nothing inlined as data: URLs, so a strict Content-Security-Policy needs no data: source.
    assetsInlineLimit: 0,
  },
  server: {
    // `npx vite console` during development: the API and branding come from a running platform.
    proxy: { "/api": "http://127.0.0.1:8090", "/branding": "http://127.0.0.1:8090", "/_": "http://127.0.0.1:8090" },
  },
});
