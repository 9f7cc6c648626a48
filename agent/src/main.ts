// `agent <command>`: the entry of the bundle. Exit status: 0 done, 1 failed (a refused config, a
// failed write), 2 usage error (unknown command or flag).
import { fileURLToPath } from "node:url";
import { ConfigError } from "../../common/config/errors";
import { flagsHelp, parseFlags, UsageError, type FlagSpecs, type FlagValues } from "./cli/flags";
import { loadAgentConfig } from "./config/load";
import { processSources } from "./config/process-sources";
import { createLogger } from "./lib/log";
import { runAgent } from "./run";
import { installService } from "./service/install";
import { UNIT_NAME } from "./service/unit";
import { AGENT_VERSION } from "./version";
import { enrollCommand } from "./platform/enroll";
import { reconfigureGateway } from "./gateway/reconfigure";

interface Command {
  /** Words after `agent`, e.g. ["service", "install"]. */
  words: string[];
  summary: string;
  flags: FlagSpecs;
  run(flags: FlagValues): Promise<number>;
}

const CONFIG_FLAG = { config: { boolean: false, value: "path", help: "The agent.yaml to read (default: ./agent.yaml, else /etc/iot-agent/agent.yaml)." } } as const;

const configPath = (flags: FlagValues) => (typeof flags.config === "string" ? flags.config : undefined);

function requiredFlag(flags: FlagValues, command: string, name: string): string {
  const value = flags[name];
  if (typeof value !== "string") throw new UsageError(`agent ${command}: --${name} is required`);
  return value;
}

const COMMANDS: Command[] = [
  {
    words: ["run"],
    summary: "Run the agent: checks, /ready and /metrics, telemetry, the platform, bus and overlay components.",
    flags: CONFIG_FLAG,
    run: (flags) => runAgent(processSources(configPath(flags)), createLogger()),
  },
  {
    words: ["enroll"],
    summary: "Sign in as a Thing with its one-time password (read from stdin or a prompt) and write its credentials.",
    flags: {
      platform: { boolean: false, value: "url", help: "The control plane's URL, e.g. https://iot.example.com." },
      email: { boolean: false, value: "e-mail", help: "The Thing's e-mail (<code>@<organization code>.thing.local)." },
      ...CONFIG_FLAG,
      "state-dir": { boolean: false, value: "dir", help: "Where to write the state files (default: state_dir of the config)." },
      password: { boolean: false, help: "", refusal: "the password is never an argument: pipe it on stdin or type it at the prompt" },
    },
    run: (flags) => {
      const platform = requiredFlag(flags, "enroll", "platform");
      const email = requiredFlag(flags, "enroll", "email");
      const stateDir = typeof flags["state-dir"] === "string" ? flags["state-dir"] : loadAgentConfig(processSources(configPath(flags))).state_dir;
      return enrollCommand({ platform, email, stateDir }, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
    },
  },
  {
    words: ["gateway", "reconfigure"],
    summary: "Re-run the leaf configuration of a gateway: the running agent applies the hub's current leaf config and restarts the leaf.",
    flags: {
      ...CONFIG_FLAG,
      "state-dir": { boolean: false, value: "dir", help: "The gateway's state directory (default: state_dir of the config)." },
    },
    run: async (flags) => {
      const stateDir = typeof flags["state-dir"] === "string" ? flags["state-dir"] : loadAgentConfig(processSources(configPath(flags))).state_dir;
      return reconfigureGateway(stateDir, process.stdout);
    },
  },
  {
    words: ["service", "install"],
    summary: `Write the systemd unit ${UNIT_NAME} that runs this agent with its config.`,
    flags: {
      ...CONFIG_FLAG,
      user: { boolean: true, help: "Write a user unit (systemctl --user) instead of a system unit." },
      "unit-dir": { boolean: false, value: "dir", help: "Directory of the unit (default: /etc/systemd/system, or ~/.config/systemd/user with --user)." },
    },
    run: async (flags) => {
      const user = flags.user === true;
      const path = await installService({
        sources: processSources(configPath(flags)),
        user,
        unitDir: typeof flags["unit-dir"] === "string" ? flags["unit-dir"] : undefined,
        nodePath: process.execPath,
        bundlePath: fileURLToPath(import.meta.url),
      });
      const systemctl = user ? "systemctl --user" : "systemctl";
      process.stdout.write(`wrote ${path}\nstart it with: ${systemctl} daemon-reload && ${systemctl} enable --now ${UNIT_NAME}\n`);
      return 0;
    },
  },
  {
    words: ["version"],
    summary: "Print the agent's version.",
    flags: {},
    run: async () => {
      process.stdout.write(`${AGENT_VERSION}\n`);
      return 0;
    },
  },
];

function overview(): string {
  const rows = COMMANDS.map((command) => [command.words.join(" "), command.summary]);
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    `agent ${AGENT_VERSION}: the edge agent of the IoT control plane.`,
    "",
    "Usage: agent <command> [flags]",
    "",
    "Commands:",
    ...rows.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`),
    `  ${"help".padEnd(width)}  Show this help, or a command's: agent help <command>.`,
    "",
    "Every command takes --help.",
    "",
  ].join("\n");
}

function commandHelp(command: Command): string {
  const name = command.words.join(" ");
  const flags = Object.keys(command.flags).length === 0 ? "" : " [flags]";
  return `Usage: agent ${name}${flags}\n\n${command.summary}\n\nFlags:\n${flagsHelp(command.flags)}\n`;
}

/** The command whose words start args, and the arguments after them. */
function findCommand(args: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    if (command.words.every((word, i) => args[i] === word)) return { command, rest: args.slice(command.words.length) };
  }
  return undefined;
}

async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === "help" || args[0] === "--help" || args[0] === "-h") {
    const topic = args[0] === "help" ? findCommand(args.slice(1)) : undefined;
    if (args[0] === "help" && args.length > 1 && topic === undefined) throw new UsageError(`agent help: unknown command ${JSON.stringify(args.slice(1).join(" "))}`);
    // Bare `agent` is a usage error: the overview goes to stderr with status 2.
    if (args.length === 0) {
      process.stderr.write(overview());
      return 2;
    }
    process.stdout.write(topic ? commandHelp(topic.command) : overview());
    return 0;
  }
  const found = findCommand(args);
  if (found === undefined) throw new UsageError(`agent: unknown command ${JSON.stringify(args.join(" "))} (see agent help)`);
  const flags = parseFlags(found.command.words.join(" "), found.rest, found.command.flags);
  if (flags.help === true) {
    process.stdout.write(commandHelp(found.command));
    return 0;
  }
  return found.command.run(flags);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    // A refused config or a failed write: one clear line, no stack trace.
    const message = err instanceof ConfigError ? `configuration refused: ${err.message}` : (err as Error).message;
    process.stderr.write(`agent: ${message}\n`);
    process.exit(1);
  },
);
