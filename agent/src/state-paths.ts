// Files the agent keeps under state_dir. Every one is written atomically with mode 0600.
import { join } from "node:path";

export interface StatePaths {
  /** The Thing session: platform URL, the Thing's id/e-mail/code, its token. Never a password. */
  session: string;
  /** The bus creds file the connection uses (nats-server's creds format). */
  busCreds: string;
  /** Directory of the overlay: config.yml (running), last-good.yml (rollback target). */
  overlayDir: string;
}

export function statePaths(stateDir: string): StatePaths {
  return {
    session: join(stateDir, "session.json"),
    busCreds: join(stateDir, "bus.creds"),
    overlayDir: join(stateDir, "overlay"),
  };
}
