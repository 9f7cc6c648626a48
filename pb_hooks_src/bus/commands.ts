// CLI glue: `bus export`. Commands run in the loader VM, so closures here are safe.
import { commandGroup, reportingFailure } from "../lib/command-run";
import { flagsOf } from "../lib/flags";
import { EXPORT_DEFAULTS } from "./export-options";
import { exportBusConfig } from "./export";

export function registerBusCommand(root: cobra.Command): void {
  const bus = commandGroup("bus", "Bus server (nats-server) maintenance");
  const exportCommand = new Command({
    use: "export",
    short: "Write the bus server config (bus.conf) and its data directories into --out, or one folder per node of a cluster (docs/bus-server.md)",
    silenceUsage: true,
    runE: reportingFailure("bus export", (cmd) => {
      const flags = flagsOf(cmd);
      const paths = exportBusConfig($app, {
        out: flags.getString("out"),
        port: flags.getString("port"),
        websocketPort: flags.getString("websocket-port"),
        leafnodePort: flags.getString("leafnode-port"),
        monitorPort: flags.getString("monitor-port"),
        host: flags.getString("host"),
        monitorHost: flags.getString("monitor-host"),
        domain: flags.getString("domain"),
        serverName: flags.getString("server-name"),
        nodes: flags.getString("nodes"),
        clusterPort: flags.getString("cluster-port"),
        nodeHosts: flags.getString("node-hosts"),
      });
      // nats-server resolves the config's relative directories against its working directory.
      for (const path of paths) {
        console.log(`bus export: wrote ${path}; run it from its folder: cd ${$filepath.dir(path)} && nats-server -c ${$filepath.base(path)}`);
      }
    }),
  });
  const flags = flagsOf(exportCommand);
  flags.string("out", "", "directory to write bus.conf, resolver/ and jetstream/ into (required)");
  flags.string("port", "", "client port (default: the port of bus.server_url, else 4222)");
  flags.string("websocket-port", "", `websocket port for browsers (default ${EXPORT_DEFAULTS.websocketPort})`);
  flags.string("leafnode-port", "", `leafnode port for edge sites (default ${EXPORT_DEFAULTS.leafnodePort})`);
  flags.string("monitor-port", "", `monitoring port (default ${EXPORT_DEFAULTS.monitorPort})`);
  flags.string("host", "", `address the client, websocket and leafnode listeners bind (default ${EXPORT_DEFAULTS.host})`);
  flags.string("monitor-host", "", `address the unauthenticated monitoring port binds (default ${EXPORT_DEFAULTS.monitorHost})`);
  flags.string("domain", "", "JetStream domain (default bus.persist_domain)");
  flags.string("server-name", "", "server_name (default bus-<domain>; a cluster's nodes add -1, -2, ...)");
  flags.string("nodes", "", "hub nodes: 1 (default), or an odd number from 3, each in <out>/node-<i>/ with routes to the others");
  flags.string("cluster-port", "", `route port of each node (default ${EXPORT_DEFAULTS.clusterPort})`);
  flags.string("node-hosts", "", "each node's address, comma-separated (default: every node on --host, its ports stepped by its index)");
  bus.addCommand(exportCommand);
  root.addCommand(bus);
}
