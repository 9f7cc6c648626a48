/// <reference path="../../build/types/types.d.ts" />
// A child of serve run through a bash supervisor that dies with PocketBase (bus/supervisor.ts says why):
// started with the only write end of a pipe on its stdin, kept in the store every VM shares, stopped by
// closing that pipe. The embedded bus and Litestream are run this way.
import { stderr } from "./std-streams";

interface Supervised {
  cmd: exec.Cmd;
  lifeline: io.WriteCloser;
}

/** Starts `cmd` (a supervisor) with its output on serve's stderr, kept under `key`; returns at once. */
export function startSupervised(app: CoreApp, key: string, cmd: exec.Cmd): void {
  // PocketBase's own stderr, inherited as it is (an *os.File): the child's log lands where serve's does.
  cmd.stdout = stderr();
  cmd.stderr = stderr();
  const lifeline = cmd.stdinPipe();
  cmd.start();
  // The store keeps the pipe's write end referenced: were it collected, its finalizer would close it.
  app.store().set(key, { cmd, lifeline } satisfies Supervised);
}

/** Closes the supervisor's pipe, which stops its child, and waits for both to exit. */
export function stopSupervised(app: CoreApp, key: string): void {
  const supervised = app.store().get(key) as Supervised | undefined;
  if (!supervised) return;
  app.store().remove(key);
  supervised.lifeline.close();
  try {
    supervised.cmd.wait();
  } catch {
    // Stopped by a signal: the supervisor's own exit status carries nothing more.
  }
}

/** The supervisor's pid, or undefined when none runs under `key`. */
export function supervisedPid(app: CoreApp, key: string): number | undefined {
  return (app.store().get(key) as Supervised | undefined)?.cmd.process?.pid;
}

/** Whether a supervisor runs under `key` (a missing key reads as Go's nil: null). */
export function isSupervised(app: CoreApp, key: string): boolean {
  const supervised: unknown = app.store().get(key);
  return supervised !== undefined && supervised !== null;
}
