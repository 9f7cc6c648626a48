// The console's sizes against its budgets (issue 12), from the build's manifest (<dir>/.vite/manifest.json):
// the sign-in page's JS (the entry and its static imports) <= 60 KB gzip and its CSS <= 15 KB gzip, every
// screen (entry + the screen's chunk + their static imports, shared chunks counted) <= 120 KB gzip, all JS
// <= 300 KB gzip. Used by scripts/console-budget.mjs (make test fails on an excess) and by
// bench/console.bench.ts (make bench prints the figures); e2e/console/delivery.test.ts holds the sign-in
// page's files to the same budgets as bytes received from the real binary.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const KB = 1024;
export const BUDGETS = { signInJs: 60 * KB, signInCss: 15 * KB, screen: 120 * KB, totalJs: 300 * KB };

const readManifest = (dir) => JSON.parse(readFileSync(join(dir, ".vite/manifest.json"), "utf8"));

/** Files a chunk loads before it runs: itself and its static imports, transitively. */
function closure(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, seen);
  return seen;
}
const filesOf = (manifest, keys, kind) => [...new Set([...keys].flatMap((k) => (kind === "js" ? [manifest[k].file] : manifest[k].css ?? [])))];
const entryOf = (manifest) => Object.keys(manifest).find((k) => manifest[k].isEntry);

/** The sign-in page's scripts and stylesheets (the entry and its static imports), as paths under `dir`. */
export function signInFiles(dir) {
  const manifest = readManifest(dir);
  const keys = closure(manifest, entryOf(manifest));
  return { js: filesOf(manifest, keys, "js"), css: filesOf(manifest, keys, "css") };
}

/** Every figure of the build in `dir`: { name, bytes, budget, ok }. */
export function consoleSizes(dir) {
  const manifest = readManifest(dir);
  const gz = new Map();
  const gzipped = (file) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dir, file)), { level: 9 }).length);
    return gz.get(file);
  };

  const files = (keys, kind) => filesOf(manifest, keys, kind);
  const sum = (list) => list.reduce((total, file) => total + gzipped(file), 0);

  const entry = entryOf(manifest);
  const signIn = closure(manifest, entry);
  const figures = [];
  const check = (name, bytes, budget) => figures.push({ name, bytes, budget, ok: bytes <= budget });
  check("sign-in page JS", sum(files(signIn, "js")), BUDGETS.signInJs);
  check("sign-in page CSS", sum(files(signIn, "css")), BUDGETS.signInCss);
  for (const screen of manifest[entry].dynamicImports ?? []) {
    const keys = closure(manifest, screen, new Set(signIn));
    const name = screen.replace(/^.*\//, "").replace(/\.svelte$/, "");
    check(`screen ${name} (JS + CSS)`, sum(files(keys, "js")) + sum(files(keys, "css")), BUDGETS.screen);
  }
  const allJs = readdirSync(join(dir, "assets")).filter((f) => f.endsWith(".js")).map((f) => `assets/${f}`);
  check("all JS", sum(allJs), BUDGETS.totalJs);
  return figures;
}

/** One printed line per figure. */
export function sizeLine(figure) {
  const kb = (n) => `${(n / KB).toFixed(1)} KB`;
  return `console budget: ${figure.name.padEnd(34)} ${kb(figure.bytes).padStart(9)} gzip of ${kb(figure.budget)} ${figure.ok ? "ok" : "EXCEEDED"}`;
}
