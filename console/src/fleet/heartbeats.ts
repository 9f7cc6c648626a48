// How long ago a device's agent last beat (issue 38 item 3). The bus keeps no heartbeat: the console
// learns one only while it listens on `agents.*.heartbeat`, so a device not heard since the listening began
// is "quiet" only once the threshold has passed since then; before that it is "not heard yet". Pure.
import { DEFAULT_SUBJECT_PREFIX } from "../../../common/bus/agent-subjects";

export type Beat = "recent" | "quiet" | "not-heard-yet" | "unknown";

/** The agent's default heartbeat interval is 15 s (bus.heartbeat_interval): three missed beats and a margin. */
export const DEFAULT_QUIET_AFTER_MS = 45_000;
export const QUIET_CHOICES_MS = [45_000, 120_000, 600_000] as const;

/**
 * A device's beat from when it was last heard (undefined: not since listening began), when listening began
 * (null: the console is not listening, so it cannot know) and the threshold.
 */
export function beatOf(lastHeardMs: number | undefined, listeningSinceMs: number | null, nowMs: number, quietAfterMs: number): Beat {
  if (lastHeardMs !== undefined) return nowMs - lastHeardMs > quietAfterMs ? "quiet" : "recent";
  if (listeningSinceMs === null) return "unknown";
  return nowMs - listeningSinceMs > quietAfterMs ? "quiet" : "not-heard-yet";
}

const PREFIX = `${DEFAULT_SUBJECT_PREFIX}.`;
const SUFFIX = ".heartbeat";

/** The Thing code of a heartbeat subject under the default prefix, or null for any other subject. */
export function heartbeatCode(subject: string): string | null {
  if (!subject.startsWith(PREFIX) || !subject.endsWith(SUFFIX)) return null;
  const code = subject.slice(PREFIX.length, -SUFFIX.length);
  return code && !code.includes(".") ? code : null;
}

/** "12 s", "4 min", "3 h", "2 d": an age in its largest whole unit. */
export function ageWords(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7_200) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3_600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}
