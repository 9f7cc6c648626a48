// The leaf server as a managed child (lib/child.ts): started from the config file, restarted with a
// doubling back-off whenever it dies, reloaded with SIGHUP (the preload of account tokens), restarted on
// purpose (the uplink remedy). Its log lines go to the agent's log; warnings and errors as warnings.
import { doublingDelay } from "../lib/backoff";
import { startManaged, type ManagedChild } from "../lib/child";
import type { Logger } from "../lib/log";
import { RepeatedLines } from "../lib/repeats";

export type LeafState =
  | { running: true; pid: number; since: number }
  | { running: false; reason: string; since: number; nextStartAt?: number };

export interface LeafProcess {
  /** Starts the leaf unless it runs (or a restart is pending). */
  ensureRunning(): void;
  /** SIGHUP: the leaf re-reads its config and the included preload. False when it does not run. */
  reload(reason: string): boolean;
  /** Stops and starts it again now. */
  restart(reason: string): Promise<void>;
  state(): LeafState;
  stop(): Promise<void>;
}

export interface LeafProcessOptions {
  natsServer: string;
  configPath: string;
  logger: Logger;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** A leaf that lived this long was a success: its next death starts the back-off afresh. */
const STABLE_MS = 30_000;

export function startLeafProcess(options: LeafProcessOptions): LeafProcess {
  const { logger } = options;
  let child: ManagedChild | undefined;
  let state: LeafState = { running: false, reason: "not started yet: waiting for the leaf configuration", since: Date.now() };
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let launching = false;
  let stopped = false;
  // The last complaint it wrote: why a leaf that exits at once refused to run.
  let complaint = "";
  // A complaint repeated by every refused reconnect is logged once a minute, with how often it came.
  const repeats = new RepeatedLines(60_000);

  const onLine = (_stream: string, line: string) => {
    if (!line) return;
    // nats-server's own levels: [INF] [DBG] [TRC] [WRN] [ERR] [FTL]; a config it refuses is a line without one.
    if (/\[(WRN|ERR|FTL)\]/.test(line) || !/\[(INF|DBG|TRC)\]/.test(line)) {
      complaint = line.replace(/^.*?\[(WRN|ERR|FTL)\]\s*/, "").slice(0, 300);
      const offered = repeats.offer(line);
      if (offered) logger.warn("leaf server", offered.repeated > 0 ? { line, repeated_since_last: offered.repeated } : { line });
    }
    else logger.debug("leaf server", { line });
  };

  const scheduleRetry = (reason: string) => {
    failures++;
    const delay = doublingDelay(FIRST_RETRY_MS, failures - 1, MAX_RETRY_MS);
    state = { running: false, reason, since: Date.now(), nextStartAt: Date.now() + delay };
    logger.warn("gateway: the leaf server is down; starting it again", { reason, retry_in_ms: delay });
    retry = setTimeout(() => {
      retry = undefined;
      launch();
    }, delay);
  };

  function launch(): void {
    if (stopped || child || launching) return;
    launching = true;
    startManaged(options.natsServer, ["-c", options.configPath], { onLine }).then(
      (started) => {
        launching = false;
        if (stopped) {
          void started.stop();
          return;
        }
        child = started;
        complaint = "";
        const since = Date.now();
        state = { running: true, pid: started.pid, since };
        logger.info("gateway: leaf server started", { pid: started.pid });
        void started.exited.then(({ code, signal }) => {
          // A stop or restart on purpose cleared `child` first.
          if (child !== started) return;
          child = undefined;
          if (Date.now() - since >= STABLE_MS) failures = 0;
          scheduleRetry(`the leaf server exited (${signal ?? `code ${code}`})${complaint ? `: ${complaint}` : ""}`);
        });
      },
      (err: unknown) => {
        launching = false;
        scheduleRetry(`cannot start ${options.natsServer}: ${(err as Error).message}`);
      },
    );
  }

  return {
    ensureRunning() {
      if (!child && !retry) launch();
    },
    reload(reason) {
      if (!child) return false;
      logger.info("gateway: reloading the leaf server", { reason });
      child.signal("SIGHUP");
      return true;
    },
    async restart(reason) {
      logger.warn("gateway: restarting the leaf server", { reason });
      const running = child;
      child = undefined;
      if (retry) clearTimeout(retry);
      retry = undefined;
      // Not serving from here on: a check while the old leaf shuts down must not report it (and its pid) ok.
      state = { running: false, reason: `restarting: ${reason}`, since: Date.now() };
      await running?.stop();
      launch();
    },
    state: () => state,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const running = child;
      child = undefined;
      await running?.stop();
      state = { running: false, reason: "the agent is stopping", since: Date.now() };
    },
  };
}
