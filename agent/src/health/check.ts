// One readiness check of the agent (spec 3.3, 4.4): the same four states as the control plane's.
import type { CheckState } from "../../../pb_hooks_src/observability/readiness/states";

export type { CheckState };

export interface CheckOutcome {
  state: CheckState;
  detail?: string;
  /** A command where one exists, else prose; the report fills a generic one on a non-ok state. */
  fix?: string;
}

/**
 * A check answers from the state its component already holds (or with one bounded look); the registry
 * runs every check concurrently, bounds each in time, and turns a throw into a fail.
 */
export interface Check {
  readonly name: string;
  run(): Promise<CheckOutcome>;
}

/** What cmd.health answers and /ready serves: one registry, one report (the body carries `version`). */
export interface ReadinessSource {
  report(): { status: number; body: object };
}
