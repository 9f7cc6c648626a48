// CLI glue: the `bootstrap` command. Commands run in the loader VM, so closures here are safe.
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { bootstrap } from "./bootstrap";
import { trimAsciiSpace } from "./mailbox";
import { reportingFailure } from "../lib/command-run";
import { flagsOf } from "../lib/flags";

export function registerBootstrapCommand(root: cobra.Command): void {
  const command = new Command({
    use: "bootstrap",
    short: "Create the first Platform Operator, the system organization and the operator organization (after `migrate up`)",
    silenceUsage: true,
    runE: reportingFailure("bootstrap", (cmd) => {
      const flags = flagsOf(cmd);
      const result = bootstrap($app, collectionNames(currentConfig()), {
        email: trimAsciiSpace(flags.getString("email")),
        password: flags.getString("password"),
        systemOrganization: flags.getString("org"),
        operatorOrganization: flags.getString("operator-org"),
      });
      console.log(`bootstrapped: Platform Operator ${result.email}, system organization "${result.systemOrganization}", operator organization "${result.operatorOrganization}"`);
      if (result.generatedPassword) console.log(`generated password (shown once): ${result.generatedPassword}`);
    }),
  });
  const flags = flagsOf(command);
  flags.string("email", "", "e-mail of the first Platform Operator (required)");
  flags.string("password", "", "its password; generated and printed once when omitted");
  flags.string("org", "System", "name of the system organization");
  flags.string("operator-org", "Operators", "name of the operator organization");
  root.addCommand(command);
}
