// CLI glue: `audit prune`, the retention sweep on demand. Commands run in the loader VM, so closures
// here are safe.
import { currentConfig } from "../config/runtime";
import { commandGroup, reportingFailure } from "../lib/command-run";
import { flagsOf } from "../lib/flags";
import { withOverrides } from "./retention";
import { pruneAuditLog } from "./retention-job";

export function registerAuditCommand(root: cobra.Command): void {
  const audit = commandGroup("audit", "Audit log maintenance");
  const prune = new Command({
    use: "prune",
    short: "Remove audit entries beyond audit.retention.max_age / max_records now (what the cron sweep does)",
    silenceUsage: true,
    runE: reportingFailure("audit prune", (cmd) => {
      const flags = flagsOf(cmd);
      const settings = withOverrides(currentConfig().audit.retention, {
        maxAge: flags.getString("max-age"),
        maxRecords: flags.getString("max-records"),
      });
      const result = pruneAuditLog($app, settings);
      if (!result) console.log("audit prune: retention is off (no max age, no max records); nothing removed");
      else console.log(`audit prune: removed ${result.byAge + result.byCount} entries (${result.byAge} by age, ${result.byCount} by count)`);
    }),
  });
  const flags = flagsOf(prune);
  flags.string("max-age", "", "override audit.retention.max_age for this run (Go duration, e.g. 720h)");
  flags.string("max-records", "", "override audit.retention.max_records for this run");
  audit.addCommand(prune);
  root.addCommand(audit);
}
