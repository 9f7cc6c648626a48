// What the loader VM does once, before PocketBase starts: accept the platform's flags, refuse to start on
// a bad configuration with one clear line, record what the small bundle's handlers need from it, and
// register the platform's commands.
import { ConfigError } from "./config/load";
import { currentConfig, publishConfig } from "./config/runtime";
import { rootCommand } from "./lib/events";
import { persistentFlagsOf } from "./lib/flags";
import { registerBootstrapCommand } from "./tenancy/commands";
import { registerAuditCommand } from "./audit/commands";
import { registerBusCommand } from "./bus/commands";
import { recordEmbeddedBus } from "./bus/embedded";
import { recordReplication } from "./replication/process";
import { registerReplicationCommand } from "./replication/commands";
import { publishCollectionNames } from "./lib/serving-names";
import { publishConsoleHeaders } from "./console-page/middleware";
import { collectionNames } from "./schema/names";

export function start(): void {
  // Root persistent flags: `serve` does not exist yet when hooks load, and subcommands inherit these.
  const flags = persistentFlagsOf(rootCommand());
  flags.string("config", "", "platform configuration file (YAML)");
  flags.bool("bus", false, "serve: run the bus server as a managed child (bus.embedded)");
  flags.string("bus-config", "", "serve: bus server config file (bus.embedded_config)");
  try {
    currentConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`configuration refused: ${err.message}`);
    $os.exit(2);
  }
  publishConfig();
  publishCollectionNames(collectionNames(currentConfig()));
  publishConsoleHeaders(currentConfig().bus.websocket_urls);
  registerBootstrapCommand(rootCommand());
  registerAuditCommand(rootCommand());
  registerBusCommand(rootCommand());
  registerReplicationCommand(rootCommand());
  recordEmbeddedBus();
  recordReplication();
}
