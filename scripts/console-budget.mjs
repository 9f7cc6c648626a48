#!/usr/bin/env node
// The console's size budgets (issue 12; measured by console-sizes.mjs): prints the figures of the build
// in pb_public/ (or the directory given) and exits 1 when one is exceeded. Run by make test.
import { consoleSizes, sizeLine } from "./console-sizes.mjs";

const figures = consoleSizes(process.argv[2] ?? "pb_public");
for (const figure of figures) console.log(sizeLine(figure));
if (figures.some((f) => !f.ok)) process.exit(1);
