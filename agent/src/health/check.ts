// One readiness check of the agent (spec 3.3, 4.4): the same four states as the control plane's.
import type { CheckState } from "../../../common/readiness/states";
import type { AgentCheckName } from "./checks";

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
export interface Check<Name extends string = string> {
  readonly name: Name;
  run(): Promise<CheckOutcome>;
}

/** What cmd.health answers and /ready serves: one registry, one report (the body carries `version`). */
export interface ReadinessSource {
  report(): { status: number; body: object };
}

/** One of the agent's own checks: its name is in the index (checks.ts). */
export type AgentCheck = Check<AgentCheckName>;
