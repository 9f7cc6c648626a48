// Whether a newly applied config has proved itself (docs/overlay.md "The agent's nebula", rollback). Pure:
// the caller passes the clock and what the tunnels show.

export interface Trial {
  /** When the config took effect (the reload was sent or nebula restarted). */
  startedAt: number;
  /** The config names lighthouses to handshake with (a lighthouse itself, or a host with none, has none). */
  hasLighthouses: boolean;
  /** A last good config exists to return to (the very first config has none). */
  hasFallback: boolean;
}

/**
 * confirm: a lighthouse handshake proves the config (it becomes the last good one);
 * wait: no proof yet, the handshake timeout has not passed;
 * rollback: no proof within the timeout, return to the last good config;
 * unproven: no proof within the timeout and nothing to return to: keep running it, keep waiting for proof.
 */
export type Verdict = "confirm" | "wait" | "rollback" | "unproven";

export function judgeTrial(trial: Trial, now: number, timeoutMs: number, lighthouseHandshake: boolean): Verdict {
  if (!trial.hasLighthouses || lighthouseHandshake) return "confirm";
  if (now - trial.startedAt < timeoutMs) return "wait";
  return trial.hasFallback ? "rollback" : "unproven";
}
