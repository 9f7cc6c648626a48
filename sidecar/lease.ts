// The control plane's write lease in the bus (issue 35 item 2): one key in a NATS KV bucket whose entries
// lapse after the TTL, taken with compare-and-set (create only when absent, renew only at the revision we
// wrote) and renewed every third of the TTL. Each outcome is reported to PocketBase, which refuses writes
// unless the lease is held (pb_hooks_src/replication/lease-rule.ts). goja has no timer, so the sidecar
// holds it, as it keeps the readiness prober's schedule.
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { Kvm, type KV } from "@nats-io/kv";
import { credsSigner, parseCreds } from "./creds";
import { LEASE_PATH } from "../common/sidecar/routes";
import type { LeaseHoldRequest, LeaseReport } from "../common/sidecar/protocol";
import type { Post } from "./prober";

/** Clocks and the time a renewal spends in flight: the holder stops counting the lease this much early. */
export const LEASE_MARGIN_MS = 1_000;
const KEY = "primary";

export interface LeaseDeps {
  post: Post;
  now: () => number;
  dial?: (settings: LeaseHoldRequest) => Promise<NatsConnection>;
  warn: (message: string) => void;
}

/**
 * What an attempt to take or renew the lease leaves: held until `startedMs` + TTL − margin when the bus
 * took our write, the previous state otherwise (a bus that did not answer takes nothing away before its time).
 */
export function afterAttempt(previous: LeaseReport, outcome: Outcome, startedMs: number, ttlMs: number): LeaseReport {
  switch (outcome.kind) {
    case "ours":
      return { held: true, untilMs: startedMs + ttlMs - LEASE_MARGIN_MS, holder: outcome.holder, detail: "" };
    case "theirs":
      return { held: false, untilMs: 0, holder: outcome.holder, detail: outcome.detail };
    case "unanswered":
      return { ...previous, detail: outcome.detail };
  }
}

/** The lease written by us, found another's, or a bus that did not answer. */
export type Outcome = { kind: "ours" | "theirs" | "unanswered"; holder: string; detail: string };

export class LeaseHolder {
  private nc: NatsConnection | undefined;
  private kv: KV | undefined;
  private revision: number | undefined;
  private report: LeaseReport = { held: false, untilMs: 0, holder: "", detail: "the write lease has not been taken yet" };
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly settings: LeaseHoldRequest,
    private readonly deps: LeaseDeps,
  ) {}

  start(): void {
    void this.tick();
  }

  /** Whether it holds for `settings` (same bus, creds, bucket, holder): asked again, it keeps going. */
  sameAs(settings: LeaseHoldRequest): boolean {
    return JSON.stringify(settings) === JSON.stringify(this.settings);
  }

  /**
   * Stops renewing; with `release`, deletes our entry so that a standby may take the lease at once (only
   * once this control plane has stopped writing and Litestream has made its last upload).
   */
  async stop(release: boolean): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (release && this.kv && this.revision !== undefined) await this.kv.purge(KEY, { previousSeq: this.revision }).catch(() => undefined);
    await this.nc?.close().catch(() => undefined);
  }

  /** One attempt, then its report to PocketBase. */
  async attempt(): Promise<LeaseReport> {
    const started = this.deps.now();
    const outcome = await this.write().catch((err: unknown) => {
      this.dropConnection();
      return { kind: "unanswered" as const, holder: "", detail: `the bus did not answer about the write lease: ${err instanceof Error ? err.message : String(err)}` };
    });
    // A holder stopped meanwhile (replaced, or its PocketBase gone) reports nothing more.
    if (this.stopped) return this.report;
    this.report = afterAttempt(this.report, outcome, started, this.settings.ttlMs);
    // Not waited for: what PocketBase does on a change (it may reconcile every account) must not delay the next renewal.
    void this.deps.post(LEASE_PATH, this.report).then(
      (answer) => {
        if (answer.status !== 200) this.deps.warn(`PocketBase did not take the write lease's state (${answer.status})`);
      },
      (err: unknown) => this.deps.warn(`PocketBase did not take the write lease's state (${String(err)})`),
    );
    return this.report;
  }

  private async write(): Promise<Outcome> {
    const kv = await this.bucket();
    const value = JSON.stringify({ holder: this.settings.holder, at: new Date(this.deps.now()).toISOString() });
    const me = this.settings.holder;
    if (this.revision !== undefined) {
      try {
        this.revision = await kv.update(KEY, value, this.revision);
        return { kind: "ours", holder: me, detail: "" };
      } catch {
        this.revision = undefined; // someone else wrote since: look again below
      }
    }
    try {
      this.revision = await kv.create(KEY, value);
      return { kind: "ours", holder: me, detail: "" };
    } catch {
      const entry = await kv.get(KEY);
      const holder = entry && entry.operation === "PUT" ? holderOf(entry.string()) : "";
      if (entry && holder === me) {
        // Ours from before a restart of this sidecar: renewed at the revision found.
        this.revision = await kv.update(KEY, value, entry.revision);
        return { kind: "ours", holder: me, detail: "" };
      }
      return { kind: "theirs", holder, detail: holder ? `the write lease is held by ${holder}` : "the write lease was taken by another control plane" };
    }
  }

  private async bucket(): Promise<KV> {
    if (this.kv) return this.kv;
    const { settings } = this;
    this.nc = await (this.deps.dial ?? dialBus)(settings);
    this.kv = await new Kvm(this.nc).create(settings.bucket, { ttl: settings.ttlMs, history: 1, replicas: settings.replicas });
    return this.kv;
  }

  private dropConnection(): void {
    void this.nc?.close().catch(() => undefined);
    this.nc = undefined;
    this.kv = undefined;
  }

  private async tick(): Promise<void> {
    await this.attempt();
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), Math.max(250, Math.floor(this.settings.ttlMs / 3)));
  }
}

function holderOf(text: string): string {
  try {
    const value = JSON.parse(text) as { holder?: unknown };
    return typeof value.holder === "string" ? value.holder : "";
  } catch {
    return "";
  }
}

function dialBus(settings: LeaseHoldRequest): Promise<NatsConnection> {
  return connect({
    servers: settings.servers,
    authenticator: credsSigner(parseCreds(settings.creds)),
    name: "platform-lease",
    timeout: 2_000,
    reconnect: false,
  });
}
