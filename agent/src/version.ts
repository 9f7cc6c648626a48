// The agent's build version: agent_build_info{version}, the readiness body's `version`, cmd.health.
// agent/build.mjs defines it from agent/package.json; tests under Node see the fallback.
declare const __AGENT_VERSION__: string | undefined;

export const AGENT_VERSION: string = typeof __AGENT_VERSION__ === "string" ? __AGENT_VERSION__ : "0.0.0-dev";
