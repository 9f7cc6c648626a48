// What the composition root (run.ts) hands every component it starts, and what a started component
// gives back. Apart from run.ts, so a component depends on these shapes and not on the code that starts it.
import type { AgentConfig } from "./config/types";
import type { AgentCheckName } from "./health/checks";
import type { HealthRegistry } from "./health/registry";
import type { AgentMetrics } from "./http/metrics";
import type { Logger } from "./lib/log";
import type { StatePaths } from "./state-paths";
import type { TelemetryLoop } from "./telemetry/system";

/** What every component is started with. */
export interface AgentContext {
  config: AgentConfig;
  paths: StatePaths;
  logger: Logger;
  /** Components register their checks here (bus, persistence, overlay, platform_sync). */
  health: HealthRegistry<AgentCheckName>;
  /** Components may add series (the gateway role's agent_edge_*). */
  metrics: AgentMetrics;
  /** Undefined when telemetry.enabled is false. */
  telemetry: TelemetryLoop | undefined;
}

/** A started component; stop() releases what it holds (connections, children) and never throws. */
export interface Component {
  readonly name: string;
  stop(): Promise<void>;
}
