// Prints vitest's JSON results as the plain closing line CI reads: "N passed, N failed, N skipped".
import { existsSync, readFileSync } from "node:fs";

if (!existsSync(process.argv[2])) {
  console.log("no results: the test run ended before vitest wrote them (see above)");
  process.exit(1);
}
const results = JSON.parse(readFileSync(process.argv[2], "utf8"));
const skipped = results.numPendingTests + results.numTodoTests;
console.log(`${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`);
