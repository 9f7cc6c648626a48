// (c) One process per request: reads the request JSON from stdin (secrets never on argv, which every local
// user can read), writes the response JSON to stdout, exits.
import { readFileSync } from "node:fs";
import { runOps } from "./ops.mjs";

process.stdout.write(runOps(readFileSync(0, "utf8")));
