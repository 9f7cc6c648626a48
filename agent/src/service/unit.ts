// The systemd unit `agent service install` writes. It carries paths only: the config file holds the
// settings, state_dir the secrets (0600 files written by enrollment); nothing secret is ever in the unit.

import { AGENT_NODE_FLAGS } from "./node-flags";

export const UNIT_NAME = "iot-agent.service";

/** Seconds systemd waits before restarting a failed agent: no tight restart loop. */
export const RESTART_SEC = 5;

export interface UnitOptions {
  /** Absolute path of node. */
  nodePath: string;
  /** Absolute path of the agent bundle (agent.mjs). */
  bundlePath: string;
  /** Absolute path of agent.yaml; undefined: the agent discovers it (/etc/iot-agent/agent.yaml under systemd). */
  configPath?: string;
  /** A user unit (systemctl --user) rather than a system unit. */
  user: boolean;
}

export function renderUnit(options: UnitOptions): string {
  const exec = [options.nodePath, ...AGENT_NODE_FLAGS, options.bundlePath, "run", ...(options.configPath === undefined ? [] : ["--config", options.configPath])];
  return [
    "# Written by `agent service install`. Settings live in the config file, secrets in state_dir.",
    "[Unit]",
    "Description=IoT edge agent",
    "Wants=network-online.target",
    "After=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${exec.map(quoteArgument).join(" ")}`,
    "Restart=on-failure",
    `RestartSec=${RESTART_SEC}s`,
    // SIGTERM stops the agent cleanly (it stops nebula itself); the group is killed after this.
    "TimeoutStopSec=15s",
    "",
    "[Install]",
    `WantedBy=${options.user ? "default.target" : "multi-user.target"}`,
    "",
  ].join("\n");
}

/** One ExecStart argument: double-quoted when needed, `\` and `"` escaped, `%` doubled (systemd specifiers). */
export function quoteArgument(argument: string): string {
  const escaped = argument.replace(/%/g, "%%");
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(escaped)) return escaped;
  return `"${escaped.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
