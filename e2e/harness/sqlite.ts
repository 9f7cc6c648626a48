import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * Runs `statements` with the sqlite3 shell on the database in `dataDir`, beside a running PocketBase (WAL
 * lets both in; the timeout waits out its writer), and returns what they printed, trimmed; `json` prints
 * rows as a JSON array. For what the API cannot do: set up a state, or look under it.
 */
export function sqlite(dataDir: string, statements: string, options: { json?: boolean } = {}): string {
  const args = [...(options.json ? ["-json"] : []), join(dataDir, "data.db")];
  return execFileSync("sqlite3", args, { input: `.timeout 10000\n${statements}\n`, encoding: "utf8" }).trim();
}
