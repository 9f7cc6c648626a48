// The fleet health report (issue 38 item 3): what the screen shows, computed from what the caller could
// read and what its bus connection heard. Each input the caller could not have is null, and what depends on
// it is "unknown", stated, never a failure. Pure, so its cost at 1,000 sites is measured in bench/.
import { jwtWindow } from "../bus/renewal";
import { beatOf, type Beat } from "./heartbeats";
import { CA_CERT_WARNING_MS, HOST_CERT_WARNING_MS, certificateStanding, claimSize, credentialStanding, type ClaimSize, type Standing } from "./expiry";
import { siteState, type HubConnections, type SiteState } from "./sites";

export interface FleetThing {
  id: string;
  name: string;
  code: string;
  active: boolean;
  bus_user: string;
  overlay_host: string;
}

export interface FleetBusUser {
  id: string;
  name: string;
  active: boolean;
  public_key: string;
  /** Unix seconds; 0 for a credential minted before credentials expired. */
  expires: number;
  jwt: string;
}

export interface FleetHost {
  id: string;
  name: string;
  active: boolean;
  not_after: string;
}

export interface FleetInputs {
  things: readonly FleetThing[];
  /** null: the caller's role cannot list bus users (5.1), so keys and credential expiry are unknown. */
  busUsers: readonly FleetBusUser[] | null;
  /** null: the caller's role cannot list overlay hosts. */
  hosts: readonly FleetHost[] | null;
  /** The CA's notAfter dates (current, and the next one during a rotation); null: the organization has no CA. */
  ca: { not_after: string; next_not_after: string } | null;
  /** The account's claim; null: no account. */
  accountJwt: string | null;
  /** null: the hub could not be asked (no bus connection, no answer). */
  connections: HubConnections | null;
  /** When each Thing code's heartbeat was last heard, while listening. */
  heard: ReadonlyMap<string, number>;
  /** When listening on heartbeats began; null: not listening. */
  listeningSince: number | null;
  quietAfterMs: number;
  now: number;
}

export interface SiteRow {
  thing: FleetThing;
  state: SiteState;
}

export interface QuietRow {
  thing: FleetThing;
  beat: Beat;
  /** When last heard; undefined: not since listening began. */
  lastHeard: number | undefined;
}

export interface ExpiryRow {
  thing: FleetThing;
  what: "bus credential" | "overlay certificate";
  identity: string;
  standing: Standing;
  /** When it expires (ms), if known. */
  at: number | undefined;
}

export interface FleetReport {
  /** Things with a bus identity: the sites and devices the hub can know of. */
  sites: SiteRow[];
  siteCounts: Record<SiteState, number>;
  /** Things without a bus identity: no site state, no heartbeat. */
  withoutBusIdentity: number;
  beatCounts: Record<Beat, number>;
  quiet: QuietRow[];
  expiring: ExpiryRow[];
  ca: Standing | null;
  claim: ClaimSize | null;
  keysReadable: boolean;
  hostsReadable: boolean;
}

const WATCHED: ReadonlySet<Standing> = new Set(["expired", "expiring"]);

export function fleetReport(inputs: FleetInputs): FleetReport {
  const { now } = inputs;
  const users = inputs.busUsers ? new Map(inputs.busUsers.map((u) => [u.id, u])) : null;
  const hosts = inputs.hosts ? new Map(inputs.hosts.map((h) => [h.id, h])) : null;
  const report: FleetReport = {
    sites: [],
    siteCounts: { attached: 0, direct: 0, islanded: 0, unknown: 0 },
    withoutBusIdentity: 0,
    beatCounts: { recent: 0, quiet: 0, "not-heard-yet": 0, unknown: 0 },
    quiet: [],
    expiring: [],
    ca: inputs.ca ? worstOf([certificateStanding(inputs.ca.not_after, CA_CERT_WARNING_MS, now), inputs.ca.next_not_after ? certificateStanding(inputs.ca.next_not_after, CA_CERT_WARNING_MS, now) : "ok"]) : null,
    claim: inputs.accountJwt === null ? null : claimSize(inputs.accountJwt),
    keysReadable: users !== null,
    hostsReadable: hosts !== null,
  };
  for (const thing of inputs.things) {
    if (thing.bus_user) {
      const user = users?.get(thing.bus_user);
      const state = siteState(inputs.connections, user?.public_key ?? null);
      report.sites.push({ thing, state });
      report.siteCounts[state]++;
      const lastHeard = inputs.heard.get(thing.code);
      const beat = beatOf(lastHeard, inputs.listeningSince, now, inputs.quietAfterMs);
      report.beatCounts[beat]++;
      if (beat === "quiet") report.quiet.push({ thing, beat, lastHeard });
      // A suspended identity is not renewed on purpose: its expiry is no warning.
      if (user?.active) {
        const standing = credentialStanding(jwtWindow(user.jwt), user.expires, now);
        if (WATCHED.has(standing)) report.expiring.push({ thing, what: "bus credential", identity: user.name, standing, at: user.expires * 1000 });
      }
    } else {
      report.withoutBusIdentity++;
    }
    const host = thing.overlay_host ? hosts?.get(thing.overlay_host) : undefined;
    if (host?.active) {
      const standing = certificateStanding(host.not_after, HOST_CERT_WARNING_MS, now);
      if (WATCHED.has(standing)) report.expiring.push({ thing, what: "overlay certificate", identity: host.name, standing, at: Date.parse(host.not_after.replace(" ", "T")) });
    }
  }
  // Longest silence first; then the soonest expiry first.
  report.quiet.sort((a, b) => (a.lastHeard ?? 0) - (b.lastHeard ?? 0) || a.thing.name.localeCompare(b.thing.name));
  report.expiring.sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || a.thing.name.localeCompare(b.thing.name));
  return report;
}

const SEVERITY: readonly Standing[] = ["expired", "expiring", "unknown", "ok"];

function worstOf(standings: Standing[]): Standing {
  return SEVERITY.find((s) => standings.includes(s)) ?? "ok";
}

export const STANDING_WORDS: Readonly<Record<Standing, string>> = {
  expired: "Expired",
  expiring: "Expiring soon",
  ok: "In date",
  unknown: "Unknown",
};
