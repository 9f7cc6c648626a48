// `serve --bus`: nats-server as a managed child of serve (goja glue). It is started from serve's
// onBootstrap (loader.ts#startServing), which PocketBase triggers before the serve command applies
// migrations and listens, and answers on its client port before bootstrap returns; onTerminate stops it
// (both registered in main.pb.ts).
// The supervisor (supervisor.ts) stops it as well when PocketBase dies without terminating.
import { currentConfig } from "../config/runtime";
import { firstLineOf } from "../lib/errors";
import { startSupervised, stopSupervised, supervisedPid } from "../lib/supervised-child";
import { withoutCredentials } from "../../common/url-text";
import { invokedCommand } from "../lib/flags";
import { clientPortOf, jetstreamDomainOf, serverUrlPort, serverUrls } from "./server-port";
import { answered, awaitAnswerArgs, dialHost, parsePreflight, preflightArgs, supervisorArgs, supervisorEnv } from "./supervisor";

// PocketBase's goja exposes process.env; the generated declarations omit it.
declare const process: { env: Record<string, string | undefined> };


const STORE_KEY = "platform.bus.embedded";
const ENABLED_KEY = "platform.bus.embedded.enabled";
const START_TIMEOUT_MS = 30_000;

/**
 * From the loader VM, which alone knows the command line's command: when this process is `serve` with
 * bus.embedded, record so for main.pb.ts (which then binds the stop hook) and startServing; the store is
 * shared by every VM.
 */
export function recordEmbeddedBus(): void {
  if (currentConfig().bus.embedded && invokedCommand() === "serve") $app.store().set(ENABLED_KEY, true);
}

/** Whether this process is `serve` with bus.embedded, as recordEmbeddedBus found. */
export function embeddedBusWanted(app: CoreApp = $app): boolean {
  return app.store().get(ENABLED_KEY) === true;
}

/** For serve's onBootstrap: starts nats-server when recordEmbeddedBus found it wanted. */
export function startEmbeddedIfEnabled(app: CoreApp): void {
  if (embeddedBusWanted(app)) startEmbedded(app);
}

/** Starts nats-server and returns once its client port answers; exits the process on any failure. */
export function startEmbedded(app: CoreApp): void {
  const config = currentConfig();
  const configPath = $filepath.isAbs(config.bus.embedded_config) ? config.bus.embedded_config : $filepath.join($os.getwd(), config.bus.embedded_config);
  let text = "";
  try {
    text = toString($os.readFile(configPath));
  } catch (err) {
    refuse(`bus.embedded_config ${configPath} cannot be read: ${firstLineOf(err)}`);
  }
  let port = 0;
  try {
    port = clientPortOf(text);
    const urls = serverUrls(config.bus.server_url);
    if (urls.length > 1) refuse(`serve --bus runs one bus server, but bus.server_url names ${urls.length} (${withoutCredentials(config.bus.server_url)}): name the one it runs`);
    const urlPort = serverUrlPort(config.bus.server_url);
    if (port !== urlPort) refuse(`bus.embedded_config ${configPath} listens on port ${port} but bus.server_url ${withoutCredentials(config.bus.server_url)} dials port ${urlPort}`);
    const domain = jetstreamDomainOf(text);
    if (domain !== config.bus.persist_domain) {
      refuse(`bus.embedded_config ${configPath} has the JetStream domain ${JSON.stringify(domain)} but bus.persist_domain is ${JSON.stringify(config.bus.persist_domain)}, which sites are told to use: make them the same`);
    }
  } catch (err) {
    refuse(`bus.embedded_config ${configPath}: ${firstLineOf(err)}`);
  }

  const natsServer = process.env.NATS_SERVER_BIN || $filepath.join(__hooks, "..", "bin", "nats-server");
  // Relative paths in the config (resolver, jetstream) are the folder's own: nats-server runs there.
  const folder = $filepath.dir(configPath);
  try {
    $os.stat(natsServer);
  } catch {
    fail(`no nats-server at ${natsServer}; set NATS_SERVER_BIN to its path`);
  }
  const host = dialHost(config.bus.server_url);
  const preflight = $os.cmd("timeout", ...preflightArgs(natsServer, configPath, host, port));
  preflight.dir = folder;
  preflight.env = supervisorEnv(process.env);
  const checked = parsePreflight(outputOf(preflight));
  if ("complaint" in checked) fail(`nats-server refused ${configPath}: ${checked.complaint}`);
  if ("busy" in checked) fail(`something already listens on ${host}:${port}; stop it or choose another port`);

  const cmd = $os.cmd("bash", ...supervisorArgs(natsServer, configPath));
  cmd.dir = folder;
  cmd.env = supervisorEnv(process.env);
  // nats-server's log lands where serve's does, a journald socket included. Until 2026-11-25 the
  // supervisor reopened /proc/<pid>/fd/2, a file description of its own, whose appends serve's writes
  // overwrote when serve's output was a file (`>`).
  startSupervised(app, STORE_KEY, cmd);

  const outcome = answered(outputOf($os.cmd("timeout", ...awaitAnswerArgs(host, port, supervisedPid(app, STORE_KEY) ?? 0, START_TIMEOUT_MS))));
  if (outcome !== "answers") {
    stopEmbedded(app);
    fail(outcome === "exited" ? "nats-server exited before it answered (its log is above)" : `nats-server did not answer on ${host}:${port} within ${START_TIMEOUT_MS / 1000}s (its log is above)`);
  }
  console.log(`bus: nats-server answers on ${host}:${port} (config ${configPath})`);
}

/** Closes the supervisor's pipe, which stops nats-server, and waits for both to exit. */
export function stopEmbedded(app: CoreApp): void {
  stopSupervised(app, STORE_KEY);
}

/**
 * The pid of the supervisor of the nats-server child this process started (`serve --bus`), or undefined
 * when this process runs no embedded bus. The metrics collector reads it to report the child's state.
 */
export function embeddedSupervisorPid(app: CoreApp): number | undefined {
  return supervisedPid(app, STORE_KEY);
}

/** What a command printed; "" when it failed or was stopped (goja's exec then keeps no output). */
function outputOf(cmd: exec.Cmd): string {
  try {
    return toString(cmd.output());
  } catch {
    return "";
  }
}

/** A refused configuration: one line and status 2, like every configuration refusal. */
function refuse(message: string): never {
  console.error(`configuration refused: ${message}`);
  return $os.exit(2) as never;
}

function fail(message: string): never {
  console.error(`serve --bus: ${message}`);
  return $os.exit(1) as never;
}
