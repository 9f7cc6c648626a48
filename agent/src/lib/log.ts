// The agent's log: one JSON object per line on stderr (journald and log shippers read it as is).
// Callers pass fields, never secrets: no seed, creds text, token, password or private key is ever a field.
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Writes to stderr until the stream fails (a log pipe whose reader went away: a `tee` or a shipper that
 * restarted). The agent then runs on unlogged: without the listener the failure was an uncaught EPIPE,
 * whose report was one more write to the same pipe, and the agent spun on it, probing nothing.
 */
function stderrLines(): (line: string) => void {
  let open = true;
  process.stderr.on("error", () => (open = false));
  return (line) => {
    if (open) process.stderr.write(line);
  };
}

export function createLogger(write: (line: string) => void = stderrLines(), minimum: LogLevel = "info"): Logger {
  const emit = (level: LogLevel) => (msg: string, fields: LogFields = {}) => {
    if (RANK[level] < RANK[minimum]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
