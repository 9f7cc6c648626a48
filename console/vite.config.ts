// Builds the console into ../pb_public, which the stock PocketBase serves at / with index fallback
// (scripts/platform passes --publicDir). Each screen is its own chunk; the manifest feeds
// scripts/console-budget.mjs.
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [svelte()],
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
