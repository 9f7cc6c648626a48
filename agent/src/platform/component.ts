// The platform side of `agent run`: platform sync from the enrolled session, the platform_sync check, and
// before enrollment a wait for the session that `agent enroll` writes (the running service picks it up, no
// restart needed). With bus.creds set the credentials come from elsewhere and nothing here runs.
import { parseDuration } from "../../../common/config/duration";
import type { AgentContext, Component } from "../component";
import { platformSyncCheck } from "./check";
import { createPlatformClient } from "./client";
import { readSession, type Session } from "./session";
import { startPlatformSync, type PlatformSync } from "./sync";

export interface PlatformComponent extends Component {
  /** `use` runs with the sync once there is a session, before its first pass (so no config is missed). */
  whenSyncing(use: (sync: PlatformSync) => void): void;
  /** Starts sync (or the wait for enrollment); called once every component has subscribed. */
  begin(): void;
}

export function startPlatform(context: AgentContext): PlatformComponent {
  const { config, paths, logger, health } = context;
  const intervalMs = parseDuration(config.platform.sync_interval);
  if (config.bus.creds !== "") {
    health.register(platformSyncCheck({ status: "external", intervalMs }));
    return { name: "platform", whenSyncing: () => {}, begin: () => {}, stop: async () => {} };
  }
  const users: ((sync: PlatformSync) => void)[] = [];
  let sync: PlatformSync | undefined;
  let waiting: NodeJS.Timeout | undefined;
  let stopped = false;
  health.register(platformSyncCheck({ status: () => (sync ? sync.status() : "not-enrolled"), intervalMs }));

  /** The session, or undefined before enrollment; a damaged file is reported (once) and waited out like a missing one. */
  let damaged = "";
  const enrolledSession = (): Session | undefined => {
    try {
      return readSession(paths.session);
    } catch (err) {
      const message = (err as Error).message;
      if (message !== damaged) logger.error("the session file cannot be used: re-run agent enroll", { error: message });
      damaged = message;
      return undefined;
    }
  };
  let complained = false;
  const look = () => {
    if (stopped) return;
    const session = enrolledSession();
    if (!session) {
      if (!complained) logger.warn("not enrolled yet: waiting for agent enroll", { session: paths.session });
      complained = true;
      waiting = setTimeout(look, Math.min(intervalMs, 5_000));
      return;
    }
    sync = startPlatformSync({ session, paths, client: createPlatformClient(session.platform), intervalMs, logger });
    for (const use of users) use(sync);
    sync.start();
    logger.info("platform sync started", { platform: session.platform, thing: session.thing.code });
  };
  return {
    name: "platform",
    whenSyncing: (use) => {
      users.push(use);
      if (sync) use(sync);
    },
    begin: look,
    stop: async () => {
      stopped = true;
      if (waiting) clearTimeout(waiting);
      sync?.stop();
    },
  };
}
