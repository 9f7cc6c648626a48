// The browser's one connection to the bus (spec 8.3, 5.12), shared by the screens that use it (Live and
// the Visualizer) and open only while one of them is. Addresses: resolved as ../bus-address.ts says; creds:
// the caller's own linked bus identity, read when dialing and held only by the open connection (never
// stored), dropped when the session ends or the organization changes. It reconnects by itself: nats-core
// rides out an outage; a connection the server closed for good (a suspended or revoked user, a withdrawn
// account) is dialed again with freshly read creds, so a reactivation or a rotation needs no reload; a
// renewed credential is taken before the held one expires (keepRenewed). The hub's refusal gives no reason:
// the identity's own record, read at each dial and on a refusal, tells a suspended identity ("suspended"),
// which is shown as such through every redial until a connection opens.
import { credsAuthenticator, wsconnect, type Msg, type NatsConnection, type Subscription } from "@nats-io/nats-core";
import type { ClientConfig } from "../../../common/tenancy/client-config";
import { readOverride, resolveBusAddresses, servedBusAddresses, type BusAddresses } from "../bus-address";
import { loadOwnBusIdentity, readCredsFile, type LinkedBusIdentity } from "../own-identity";
import { pb } from "../pb";
import { onOwnCredentialRotated } from "../own-credential-signal";
import { onSessionChange, session } from "../session.svelte";
import { reconnectDelay } from "./backoff";
import { busErrorWords, refusesIdentity, suspendedWords } from "./error-words";
import { dialPlan } from "./plan";
import { renewalDelayMs } from "./renewal";

export type BusState = "idle" | "resolving" | "refused" | "no-identity" | "suspended" | "connecting" | "connected" | "reconnecting" | "offline";

/** What the screens show: the state, why (in words), where from. */
export const bus = $state({
  state: "idle" as BusState,
  detail: "",
  addresses: null as BusAddresses | null,
  /** The server the connection is on, while connected. */
  server: "",
});

/** Waits between dials of a connection the server closed or refused (grows to the last one). */
const RETRY_MS = [1_000, 2_000, 5_000];

interface Interest {
  subject: string;
  onMessage: (msg: Msg) => void;
  onError: (error: Error) => void;
  sub?: Subscription;
}

const interests = new Set<Interest>();
let holders = 0;
let generation = 0;
let connection: NatsConnection | null = null;
let wake: (() => void) | null = null;

/** A screen that uses the bus holds it while mounted; the returned function releases it. */
export function holdBus(): () => void {
  holders++;
  if (holders === 1) start();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0) stop();
  };
}

/** Subscribes while held, again on every new connection; the returned function unsubscribes. */
export function subscribe(subject: string, onMessage: (msg: Msg) => void, onError: (error: Error) => void): () => void {
  const interest: Interest = { subject, onMessage, onError };
  interests.add(interest);
  if (connection) attach(connection, interest);
  return () => {
    interests.delete(interest);
    interest.sub?.unsubscribe();
    interest.sub = undefined;
  };
}

/** The open connection, or an error in words when there is none. */
export function connected(): NatsConnection {
  if (!connection || bus.state !== "connected") throw new Error("The bus is not connected.");
  return connection;
}

/** Dials again at once (after a settings change, or when the user asks instead of waiting). */
export function retryNow(): void {
  if (holders === 0) return;
  stop();
  start();
}

// My credential rotated (Settings, here or in another tab): dial again with the new one.
onOwnCredentialRotated(() => retryNow());

onSessionChange(() => {
  // A new organization means another identity and account; signed out means none: drop what was held.
  stop();
  if (holders > 0 && session.user) start();
});

function attach(nc: NatsConnection, interest: Interest): void {
  try {
    interest.sub = nc.subscribe(interest.subject, {
      callback: (error, msg) => (error ? interest.onError(error) : interest.onMessage(msg)),
    });
  } catch (error) {
    interest.onError(error instanceof Error ? error : new Error(String(error)));
  }
}

function start(): void {
  const mine = ++generation;
  void run(mine);
}

function stop(): void {
  generation++;
  const open = connection;
  connection = null;
  for (const interest of interests) interest.sub = undefined;
  void open?.close().catch(() => undefined);
  wake?.();
  bus.state = "idle";
  bus.detail = "";
  bus.server = "";
}

/** Resolves after `ms`, or at once when stop() wakes it. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });
}

async function addresses(): Promise<BusAddresses> {
  const config = await pb.send<Partial<ClientConfig>>("/api/client-config", {});
  return resolveBusAddresses(readOverride(localStorage), servedBusAddresses(config));
}

/** The active membership's linked identity, or null when none is linked. */
async function ownIdentity(): Promise<LinkedBusIdentity | null> {
  const user = session.user;
  const membership = user ? session.memberships.find((m) => m.organization === user.current_organization) : undefined;
  return membership ? loadOwnBusIdentity(membership.id) : null;
}

/** The creds file of the active membership's linked identity, or null when none is linked. */
async function ownCreds(): Promise<string | null> {
  const identity = await ownIdentity();
  return identity ? readCredsFile(identity.id) : null;
}

/** Shows "suspended" when the identity's own record says so; true when it did. */
function showSuspended(identity: LinkedBusIdentity | null): boolean {
  if (!identity || identity.active) return false;
  bus.state = "suspended";
  bus.server = "";
  bus.detail = suspendedWords(identity.name);
  return true;
}

/** After the hub refused the credential: asks the identity's own record whether it is suspended. */
async function explainRefusal(mine: number, error: unknown): Promise<void> {
  if (!refusesIdentity(error)) return;
  const identity = await ownIdentity().catch(() => null);
  if (mine === generation && bus.state !== "connected") showSuspended(identity);
}

/** A step of a dial, shown unless the identity is known to be suspended (that stays until it connects). */
function showStep(state: BusState, detail = bus.detail): void {
  if (bus.state === "suspended") return;
  bus.state = state;
  bus.detail = detail;
}

function words(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

async function run(mine: number): Promise<void> {
  let failures = 0;
  const current = () => mine === generation;
  while (current()) {
    const retry = () => pause(RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    showStep("resolving");
    let identity: LinkedBusIdentity | null;
    let creds: string | null;
    let urls: string[];
    try {
      const resolved = await addresses();
      if (!current()) return;
      bus.addresses = resolved;
      const plan = dialPlan(resolved, location.protocol);
      if (plan.kind === "refused") {
        // Nothing changes until the addresses do: no dialing in a loop (retryNow after a settings change).
        bus.state = "refused";
        bus.detail = plan.message;
        return;
      }
      urls = plan.urls;
      identity = await ownIdentity();
      // A suspended identity is not dialed: the hub would refuse it; its record is read again at the next try.
      creds = identity?.active ? await readCredsFile(identity.id) : null;
    } catch (error) {
      if (!current()) return;
      bus.state = "offline";
      bus.detail = `Could not read the bus settings: ${words(error)}`;
      await retry();
      continue;
    }
    if (!current()) return;
    if (showSuspended(identity)) {
      await retry();
      continue;
    }
    if (creds === null) {
      bus.state = "no-identity";
      bus.detail = "No bus identity is linked to your membership in this organization: an owner or admin can link one.";
      return;
    }
    showStep("connecting", "");
    let nc: NatsConnection;
    // Attempts of the current outage; nats-core asks before each, and a reconnect starts the count anew.
    const outage = { attempts: 0, renewing: false };
    // Read at every (re)connect: a renewal replaces it and reconnects onto it (keepRenewed).
    const held = { creds };
    try {
      nc = await wsconnect({
        servers: urls,
        authenticator: credsAuthenticator(() => new TextEncoder().encode(held.creds)),
        name: "console",
        maxReconnectAttempts: -1,
        reconnectDelayHandler: () => reconnectDelay(outage.attempts++),
        // Only the addresses configured here: a cluster's advertised URLs may not be reachable from a browser.
        ignoreClusterUpdates: true,
        timeout: 5_000,
      });
    } catch (error) {
      if (!current()) return;
      bus.state = "offline";
      bus.detail = `Not connected: ${busErrorWords(error, urls)}.`;
      await explainRefusal(mine, error);
      await retry();
      continue;
    }
    creds = null;
    if (!current()) {
      void nc.close();
      return;
    }
    failures = 0;
    // nats-core also asked the handler for this first connect: the first outage starts from the first step.
    outage.attempts = 0;
    connection = nc;
    bus.state = "connected";
    bus.server = nc.getServer();
    for (const interest of interests) attach(nc, interest);
    void watch(nc, mine, outage);
    const stopRenewal = keepRenewed(nc, mine, held, outage);
    const closedWith = await nc.closed();
    stopRenewal();
    if (!current()) return;
    connection = null;
    for (const interest of interests) interest.sub = undefined;
    bus.server = "";
    showStep("offline", closedWith ? `The bus closed the connection: ${busErrorWords(closedWith, urls)}.` : "The bus closed the connection.");
    if (closedWith) await explainRefusal(mine, closedWith);
    await retry();
  }
}

/**
 * Takes the renewed credential before the current one expires (the hub closes a connection whose
 * credential expired): reads its own again when renewalDelayMs says, and when the platform has renewed it,
 * reconnects onto it. Subscriptions ride the reconnect, as they ride an outage. Returns the stop.
 */
function keepRenewed(nc: NatsConnection, mine: number, held: { creds: string }, outage: { renewing: boolean }): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const live = () => mine === generation && !nc.isClosed();
  const schedule = () => {
    const delay = renewalDelayMs(held.creds, Date.now());
    if (delay !== undefined && live()) timer = setTimeout(() => void renew(), delay);
  };
  const renew = async () => {
    const next = await ownCreds().catch(() => null);
    if (!live()) return;
    if (next !== null && next !== held.creds) {
      held.creds = next;
      outage.renewing = true;
      await nc.reconnect().catch(() => undefined);
    }
    schedule();
  };
  schedule();
  return () => clearTimeout(timer);
}

/** Mirrors nats-core's reconnecting during an outage onto the state; a renewal's reconnect is no outage. */
async function watch(nc: NatsConnection, mine: number, outage: { attempts: number; renewing: boolean }): Promise<void> {
  for await (const status of nc.status()) {
    if (mine !== generation) return;
    if (outage.renewing && (status.type === "forceReconnect" || status.type === "disconnect")) continue;
    if (status.type === "disconnect" || status.type === "reconnecting") {
      bus.server = "";
      showStep("reconnecting", outage.renewing ? "Switching to the renewed bus credential." : "The connection to the bus dropped; reconnecting by itself.");
    } else if (status.type === "reconnect") {
      outage.attempts = 0;
      outage.renewing = false;
      bus.state = "connected";
      bus.server = status.server;
      bus.detail = "";
    } else if (status.type === "error") {
      showStep(bus.state, busErrorWords(status.error));
      void explainRefusal(mine, status.error);
    }
  }
}
