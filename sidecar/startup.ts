// The startup handshake: one line of JSON on stdin from the parent, the port back through a state file.
// The token travels on the pipe because argv and the environment are readable by other local users.
import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import type { Readable } from "node:stream";
import type { ProbeSettings, StartupLine, StateFile } from "../common/sidecar/protocol";

const MAX_LINE_BYTES = 4096;

/** Parses the startup line; the error never quotes it (it holds the token). */
export function parseStartupLine(line: string): StartupLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error("the startup line is not valid JSON");
  }
  const { token, stateFile, probe } = (value ?? {}) as Partial<Record<keyof StartupLine, unknown>>;
  if (typeof token !== "string" || token.length < 16) throw new Error("the startup line needs a token of at least 16 characters");
  if (typeof stateFile !== "string" || stateFile === "") throw new Error("the startup line needs a stateFile path");
  return probe === undefined ? { token, stateFile } : { token, stateFile, probe: parseProbeSettings(probe) };
}

function parseProbeSettings(value: unknown): ProbeSettings {
  const { url, serverName, checks, intervalMs, timeoutMs, busNodes, upkeepIntervalMs } = (value ?? {}) as Partial<Record<keyof ProbeSettings, unknown>>;
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) throw new Error("probe.url must be an http(s) URL");
  if (serverName !== undefined && typeof serverName !== "string") throw new Error("probe.serverName must be a string");
  if (!Array.isArray(checks) || checks.length === 0 || !checks.every((c) => typeof c === "string" && c !== "")) {
    throw new Error("probe.checks must list check names");
  }
  for (const [name, ms] of [["intervalMs", intervalMs], ["timeoutMs", timeoutMs]] as const) {
    if (!Number.isSafeInteger(ms) || (ms as number) < 1) throw new Error(`probe.${name} must be a positive integer`);
  }
  if (upkeepIntervalMs !== undefined && !(Number.isSafeInteger(upkeepIntervalMs) && (upkeepIntervalMs as number) >= 1)) {
    throw new Error("probe.upkeepIntervalMs must be a positive integer");
  }
  if (busNodes !== undefined && !(Array.isArray(busNodes) && busNodes.length > 1 && busNodes.every((n) => typeof n === "string" && /^[a-z][a-z0-9+.-]*:\/\//i.test(n)))) {
    throw new Error("probe.busNodes must list two or more bus URLs");
  }
  return {
    url,
    ...(serverName ? { serverName } : {}),
    checks: checks as string[],
    intervalMs: intervalMs as number,
    timeoutMs: timeoutMs as number,
    ...(busNodes ? { busNodes: busNodes as string[] } : {}),
    ...(upkeepIntervalMs !== undefined ? { upkeepIntervalMs: upkeepIntervalMs as number } : {}),
  };
}

/**
 * Resolves with the first line of `input`, leaving the stream flowing so that its end can still be seen.
 * Rejects when the stream ends first, the line grows past 4 KiB, or nothing arrives within `timeoutMs`.
 */
export function readFirstLine(input: Readable, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const finish = (error?: Error) => {
      clearTimeout(timer);
      input.off("data", onData).off("end", onEnd);
      if (error) reject(error);
      else resolve(text.slice(0, text.indexOf("\n")));
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (text.includes("\n")) finish();
      else if (text.length > MAX_LINE_BYTES) finish(new Error("the startup line is too long"));
    };
    const onEnd = () => finish(new Error("stdin closed before the startup line"));
    const timer = setTimeout(() => finish(new Error(`no startup line within ${timeoutMs} ms`)), timeoutMs);
    input.on("data", onData).on("end", onEnd);
  });
}

/** Writes the state file so that a reader sees either nothing or all of it: a private temp file, then rename. */
export function writeStateFile(path: string, state: StateFile): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  renameSync(temp, path);
}

export function removeStateFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone: the parent may have removed it
  }
}
