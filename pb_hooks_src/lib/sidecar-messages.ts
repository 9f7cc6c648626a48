// Pure pieces of the sidecar client (lib/sidecar.ts): reading the state file and the sidecar's answers,
// and classifying Go's error texts. Kept free of goja globals so Node unit tests cover them.
import type { ErrorBody, StateFile } from "../../sidecar/protocol";

/** An error of the sidecar transport: it is not running, cannot start, or does not answer. */
export class SidecarUnavailableError extends Error {
  constructor(reason: string) {
    super(`the platform sidecar is not available: ${reason}`);
  }
}

/** The sidecar answered with an error: the operation failed (bad input, bus down), the sidecar is fine. */
export class SidecarError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    message: string,
  ) {
    super(`sidecar ${path}: ${message}`);
  }
}

/** The state file's content, or undefined while it is absent or incomplete. */
export function parseState(text: string | undefined): StateFile | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const state = value as Record<string, unknown>;
  if (typeof state.error === "string") return { error: state.error };
  if (Number.isInteger(state.port) && Number.isInteger(state.pid)) return { port: state.port as number, pid: state.pid as number };
  return undefined;
}

/** Go's dial error when nothing listens: the sidecar died, so a restart is worth one retry. */
export const isConnectionRefused = (message: string): boolean => message.includes("connection refused");

/** exec.Command's LookPath error. */
export const isExecutableMissing = (message: string): boolean => message.includes("executable file not found");

/** The answer of a call, parsed; a 4xx/5xx becomes a SidecarError with the sidecar's own message. */
export function readAnswer<T>(path: string, status: number, text: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SidecarUnavailableError(`${path} answered ${status} with a body that is not JSON`);
  }
  if (status >= 200 && status < 300) return value as T;
  const message = typeof (value as Partial<ErrorBody> | null)?.error === "string" ? (value as ErrorBody).error : `HTTP ${status}`;
  throw new SidecarError(status, path, message);
}

/** The last non-empty lines of the sidecar's stderr, for a start failure's message. */
export function lastLines(text: string, count = 3): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(-count)
    .join(" | ");
}
