// Nebula as a child of the agent (lib/child.ts: its own process group, stopped SIGTERM-then-SIGKILL):
// the daemon with its log lines handed over as they arrive, and `-test` of a config file as a bounded one-shot.
import { runBounded, startManaged, type ManagedChild } from "../lib/child";

export interface NebulaCommand {
  /** The nebula binary (config overlay.nebula). */
  binary: string;
  /** Words put before the binary, e.g. `ip netns exec <ns>` (tests); none in production. */
  launcher?: readonly string[];
}

/** Nebula closes its tunnels and exits well within this after SIGTERM; SIGKILL after it. */
export const NEBULA_STOP_GRACE_MS = 3_000;
const TEST_TIMEOUT_MS = 10_000;

/** Starts `nebula -config <path>`; `onLine` gets every non-empty line it writes. Throws when it cannot start. */
export function startNebula(command: NebulaCommand, configPath: string, onLine: (line: string) => void): Promise<ManagedChild> {
  const [file, ...args] = [...(command.launcher ?? []), command.binary, "-config", configPath];
  return startManaged(file, args, {
    onLine: (_stream, line) => {
      if (line) onLine(line);
    },
  });
}

/** nebula itself could not be run (not installed, not executable): a fact about the host, not about a config. */
export class NebulaNotRun extends Error {}

/**
 * `nebula -test -config <path>`: null when nebula accepts the config, else its complaint (bounded in time).
 * Throws NebulaNotRun when the binary cannot be started at all.
 */
export async function testConfig(command: NebulaCommand, configPath: string): Promise<string | null> {
  let result;
  try {
    // Only the binary: parsing a config needs no namespace.
    result = await runBounded(command.binary, ["-test", "-config", configPath], { timeoutMs: TEST_TIMEOUT_MS });
  } catch (err) {
    throw new NebulaNotRun(`${command.binary} could not be run (${(err as Error).message})`);
  }
  if (result.code === 0) return null;
  if (result.timedOut) return `nebula -test did not finish within ${TEST_TIMEOUT_MS / 1000} s`;
  return lastErrorLine(`${result.stderr}\n${result.stdout}`) || `nebula -test exited with ${result.code ?? result.signal}`;
}

/**
 * The last line of the output that says what went wrong. Long base64 runs are cut out: a parser's
 * complaint could quote a piece of the config, and the config holds the host's private key.
 */
function lastErrorLine(output: string): string {
  const lines = output.split("\n").filter((l) => l.trim());
  const line = lines.filter((l) => /level=(ERROR|FATAL)|error/i.test(l)).pop() ?? lines.pop() ?? "";
  return line.replace(/[A-Za-z0-9+/=]{32,}/g, "…").slice(0, 500);
}
