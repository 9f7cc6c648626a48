// `bus export`, PocketBase side: read the operator row, write the folder nats-server runs from.
import { currentConfig } from "../config/runtime";
import { collectionNames } from "../schema/names";
import { EXPORT_LAYOUT, exportNodes, type ExportFlags, type OperatorRow } from "./export-options";
import { natsServerConfig } from "./server-config";
import { serverUrls } from "./server-port";
import { ensureOperator } from "./operator";

// goja converts a JS number to Go's os.FileMode (a uint32); the generated types model its methods only.
const fileMode = (bits: number) => bits as unknown as os.FileMode;
// Persisted state (account JWTs, streams) is tenant data: only nats-server's user reads it.
const DATA_DIR_MODE = fileMode(0o700);
// The config holds public keys and JWTs only, no seed.
const CONFIG_MODE = fileMode(0o644);

/**
 * Writes `<out>/bus.conf` (or `<out>/node-<i>/bus.conf` for each node of a cluster) and creates the
 * directories each names; returns the configs' paths. Every config is rendered before any is written, so
 * a refused flag writes nothing.
 */
export function exportBusConfig(app: CoreApp, flags: ExportFlags): string[] {
  if (flags.out.trim() === "") throw new Error("--out <dir> is required");
  const config = currentConfig();
  // A cluster's first node takes the port of bus.server_url's first URL.
  const serverUrl = serverUrls(config.bus.server_url)[0];
  const nodes = exportNodes(flags, { serverUrl, persistDomain: config.bus.persist_domain }, readOperator(app));
  const texts = nodes.map((node) => natsServerConfig(node.input));
  return nodes.map((node, index) => {
    const folder = $filepath.join(flags.out, node.folder);
    for (const dir of [EXPORT_LAYOUT.resolverDir, EXPORT_LAYOUT.jetstreamDir]) $os.mkdirAll($filepath.join(folder, dir), DATA_DIR_MODE);
    // Write beside and rename, so a running server's config is never seen half-written.
    const path = $filepath.join(folder, EXPORT_LAYOUT.config);
    $os.writeFile(`${path}.tmp`, texts[index], CONFIG_MODE);
    $os.rename(`${path}.tmp`, path);
    return path;
  });
}

function readOperator(app: CoreApp): OperatorRow {
  const name = collectionNames(currentConfig()).bus_system_operator;
  let rows: core.Record[];
  try {
    rows = app.findAllRecords(name).filter((r): r is core.Record => r !== undefined);
  } catch {
    throw new Error(`the ${name} collection is missing: run \`migrate up\` first`);
  }
  if (rows.length > 1) throw new Error(`${name} holds ${rows.length} rows; exactly one operator is expected`);
  // The operator is created on first need; exporting the server's config is one.
  const row = rows[0] ?? ensureOperator(app, currentConfig().bus.operator_name);
  return {
    operatorJwt: row.getString("operator_jwt"),
    systemAccountPub: row.getString("sys_account_pub"),
    systemAccountJwt: row.getString("sys_account_jwt"),
  };
}
