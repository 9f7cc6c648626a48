// The leaf's uplink to the hub, watched every couple of seconds through the loopback monitoring port
// (/leafz): transitions are logged and announced (a reconnect re-reads the leaf config; the kv sync
// follows up/down), and an absence while the hub's leaf port accepts gets the reload-then-restart remedy.
import type { Logger } from "../lib/log";
import type { LeafProcess } from "./leaf-process";
import type { LeafMonitor } from "./monitor";
import { answers } from "./probe";
import { graceAfterReload, remedyDue, type Absence, type Remedy } from "./uplink-remedy";

export type UplinkStatus =
  | { known: false; reason: string }
  | { known: true; connected: true; since: number; hub?: string }
  | {
      known: true;
      connected: false;
      since: number;
      /** The last remedy tried during this absence. */
      remedy?: { kind: Remedy; at: number };
      /** Whether the hub's leaf port accepted at the last look (looked only once a remedy is due). */
      hubPortAccepts?: boolean;
    };

export interface UplinkWatch {
  status(): UplinkStatus;
  /** True only while the leaf reports a connected uplink. */
  up(): boolean;
  onChange(listener: (up: boolean) => void): void;
  stop(): void;
}

export interface UplinkWatchOptions {
  monitor: LeafMonitor;
  leaf: LeafProcess;
  /** Host and port of the hub's leaf listener (from the applied hub_leaf_url), when known. */
  hubAddress(): { host: string; port: number } | undefined;
  absentMs: number;
  logger: Logger;
  pollMs?: number;
}

export const UPLINK_POLL_MS = 2_000;
const PORT_LOOK_MS = 2_000;

export function startUplinkWatch(options: UplinkWatchOptions): UplinkWatch {
  const { monitor, leaf, logger, absentMs } = options;
  const graceMs = graceAfterReload(absentMs);
  const listeners: ((up: boolean) => void)[] = [];
  let status: UplinkStatus = { known: false, reason: "not looked yet" };
  let absence: Absence | undefined;
  // When the uplink went away (a restart counts the absence anew for the remedy, not for the report).
  let lostAt: number | undefined;
  let lastRemedy: { kind: Remedy; at: number } | undefined;
  let hubPortAccepts: boolean | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const announce = (up: boolean) => {
    for (const listener of listeners) {
      try {
        listener(up);
      } catch (err) {
        logger.warn("gateway: an uplink listener failed", { error: (err as Error).message });
      }
    }
  };

  async function remedy(now: number): Promise<void> {
    if (!absence) return;
    const due = remedyDue(now, absence, absentMs, graceMs);
    if (!due) return;
    const hub = options.hubAddress();
    hubPortAccepts = hub ? await answers(hub.host, hub.port, { timeoutMs: PORT_LOOK_MS }) : undefined;
    // The hub itself is away: nothing on this side would help.
    if (!hubPortAccepts || stopped) return;
    const reason = `no uplink for ${Math.round((now - absence.downSince) / 1000)} s while the hub's leaf port ${hub?.host}:${hub?.port} accepts`;
    lastRemedy = { kind: due, at: now };
    if (due === "reload") {
      absence.reloadedAt = now;
      leaf.reload(reason);
    } else {
      absence = { downSince: Date.now() };
      await leaf.restart(reason);
    }
  }

  async function look(): Promise<void> {
    const view = await monitor.uplink();
    const now = Date.now();
    const was = status;
    if (view === undefined) {
      status = { known: false, reason: "the leaf's monitoring port does not answer" };
      if (was.known && was.connected) announce(false);
      return;
    }
    if (view.connected) {
      if (!(was.known && was.connected)) {
        logger.info("gateway: hub uplink connected", { hub: view.hub });
        absence = undefined;
        lostAt = undefined;
        lastRemedy = undefined;
        hubPortAccepts = undefined;
        status = { known: true, connected: true, since: now, hub: view.hub };
        announce(true);
      }
      return;
    }
    if (!absence) {
      absence = { downSince: now };
      lostAt ??= now;
      logger.warn("gateway: no hub uplink (islanded); local traffic continues", {});
      if (was.known && was.connected) announce(false);
    }
    await remedy(now);
    status = { known: true, connected: false, since: lostAt ?? now, remedy: lastRemedy, hubPortAccepts };
  }

  const loop = async () => {
    if (stopped) return;
    await look().catch((err: unknown) => logger.warn("gateway: uplink look failed", { error: (err as Error).message }));
    if (!stopped) timer = setTimeout(() => void loop(), options.pollMs ?? UPLINK_POLL_MS);
  };
  void loop();

  return {
    status: () => status,
    up: () => status.known && status.connected,
    onChange: (listener) => void listeners.push(listener),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
