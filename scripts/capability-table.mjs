// Writes docs/capabilities.md, the capability matrix (which caller may list, view, create, update and
// delete each collection), derived by pb_hooks_src/schema/capabilities/ from the API rules of
// pb_hooks_src/schema/collections.ts, the ones the migrations apply.
// Usage: node scripts/capability-table.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importTypeScript, root } from "./import-ts.mjs";

// The rules are TypeScript.
const { capabilityDocument, MATRIX_DOC } = await importTypeScript('export { capabilityDocument, MATRIX_DOC } from "./pb_hooks_src/schema/capabilities/document.ts";');

const path = join(root, MATRIX_DOC);
let current;
try {
  current = readFileSync(path, "utf8");
} catch {
  current = undefined;
}
const updated = capabilityDocument();
if (updated === current) {
  console.log(`${MATRIX_DOC}: capability matrix up to date`);
} else {
  writeFileSync(path, updated);
  console.log(`${MATRIX_DOC}: capability matrix ${current === undefined ? "written" : "rewritten"}`);
}
