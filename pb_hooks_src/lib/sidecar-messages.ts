// Pure pieces of the sidecar client (lib/sidecar.ts): reading the state file and the sidecar's answers,
// and classifying Go's error texts. Kept free of goja globals so Node unit tests cover them.
import type { ErrorBody, StateFile } from "../../common/sidecar/protocol";

/** An error of the sidecar transport: it is not running, cannot start, or does not answer. */
export class SidecarUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`the platform sidecar is not available: ${reason}`);
  }
}

/** An error's text for a SidecarUnavailableError's reason, without that prefix twice. */
export function reasonOf(err: unknown): string {
  if (err instanceof SidecarUnavailableError) return err.reason;
  return err instanceof Error ? err.message : String(err);
}

/** The sidecar's own words for a failed operation ("the bus at … could not be reached"), not its route's name. */
export function operationReasonOf(err: unknown): string {
  return err instanceof SidecarError ? err.reason : reasonOf(err);
}

/** The sidecar answered with an error: the operation failed (bad input, bus down), the sidecar is fine. */
export class SidecarError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    /** The sidecar's own message, without the path. */
    readonly reason: string,
  ) {
    super(`sidecar ${path}: ${reason}`);
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

/**
 * How a request failed to reach a working sidecar, from Go's error text: "refused" when nothing listens
 * (the sidecar is gone), "broken" when a kept-alive connection died under the request (the sidecar was
 * killed, or closed the idle connection just as it was reused). Undefined for anything else, a timeout
 * included, which is not retried.
 */
export function deliveryFailure(message: string): "refused" | "broken" | undefined {
  if (message.includes("connection refused")) return "refused";
  if (/connection reset by peer|broken pipe|server closed idle connection|: EOF$/.test(message)) return "broken";
  return undefined;
}

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

/**
 * Whether a Linux /proc/<pid>/stat text shows a process that has exited and waits to be reaped (state Z),
 * which is what a sidecar that died while starting looks like to its parent.
 */
export function isZombieStat(stat: string | undefined): boolean {
  // The command name, in parentheses, may contain spaces; the state follows its closing parenthesis.
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
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
