// Many sites for fleet health (issue 38 item 3) without a leaf server each: Things and bus users written
// with the sqlite3 shell (their public keys are made up: no credential exists for them), and a SIMULATED
// RESPONDER on the hub — a client of the organization's account subscribed to the account-scoped CONNZ
// subject, so the caller gathers its answer beside the hub's own — that lists each attached simulated site
// as a Leafnode connection authorized as its key and publishes its agent's heartbeat. Real sites (a real
// leaf server each: e2e/harness/leaf.ts) are what the hub itself answers for.
import type { NatsConnection } from "@nats-io/transport-node";
import { DEFAULT_SUBJECT_PREFIX, agentSubjects } from "../../common/bus/agent-subjects";
import { LEAF_CONNZ_SUBJECT } from "../../console/src/bus/leaf";
import { sqlite } from "./sqlite";

export interface SimulatedSite {
  id: string;
  name: string;
  code: string;
  publicKey: string;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** A made-up user public key ("U" and 55 base32 characters), distinct per `tag` and `n`. */
function madeUpKey(tag: string, n: number): string {
  let digits = "";
  for (let rest = n, i = 0; i < 8; i++, rest = Math.floor(rest / 32)) digits = BASE32[rest % 32] + digits;
  return `U${tag.toUpperCase().replace(/[^A-Z2-7]/g, "").padEnd(8, "A").slice(0, 8)}${digits}`.padEnd(56, "A");
}

/**
 * Writes `count` Things of `organizationId`, each with an active bus user whose credential is half a
 * lifetime from expiring (so the platform's renewal leaves it alone), into the running platform's database.
 */
export function seedSimulatedSites(dataDir: string, organizationId: string, count: number, tag: string): SimulatedSite[] {
  const now = Math.floor(Date.now() / 1000);
  const lifetime = 720 * 3600;
  const jwt = `e30.${Buffer.from(JSON.stringify({ iat: now, exp: now + lifetime })).toString("base64url")}.simulated`;
  const sites = Array.from({ length: count }, (_, n) => ({
    id: `sim${tag}${String(n).padStart(6, "0")}`.slice(0, 15),
    name: `Simulated site ${tag} ${n}`,
    code: `SIM-${tag}-${n}`,
    publicKey: madeUpKey(tag, n),
  }));
  const stamp = "strftime('%Y-%m-%d %H:%M:%fZ', 'now')";
  const text = (value: string) => `'${value.replace(/'/g, "''")}'`;
  const rows = (make: (site: SimulatedSite) => string) => sites.map(make).join(",\n");
  sqlite(dataDir, `
    BEGIN;
    INSERT INTO bus_users (id, organization, name, active, public_key, jwt, expires, created, updated) VALUES
    ${rows((s) => `(${text(`u${s.id}`.slice(0, 15))}, ${text(organizationId)}, ${text(`${s.name} user`)}, 1, ${text(s.publicKey)}, ${text(jwt)}, ${now + lifetime}, ${stamp}, ${stamp})`)};
    INSERT INTO things (id, organization, name, code, active, bus_user, email, password, tokenKey, created, updated) VALUES
    ${rows((s) => `(${text(s.id)}, ${text(organizationId)}, ${text(s.name)}, ${text(s.code)}, 1, ${text(`u${s.id}`.slice(0, 15))}, ${text(`${s.code.toLowerCase()}@simulated.thing.local`)}, 'not-a-login', hex(randomblob(25)), ${stamp}, ${stamp})`)};
    COMMIT;`);
  return sites;
}

export interface SiteResponder {
  /** From now on these sites are cut off: absent from the answer, their heartbeats stopped. */
  cut(codes: Iterable<string>): void;
  stop(): void;
}

/** Answers CONNZ for the attached simulated sites and publishes their heartbeats every `beatMs`, over `nc`. */
export async function simulateSites(nc: NatsConnection, sites: readonly SimulatedSite[], beatMs: number): Promise<SiteResponder> {
  const cut = new Set<string>();
  const attached = () => sites.filter((s) => !cut.has(s.code));
  const subscription = nc.subscribe(LEAF_CONNZ_SUBJECT, {
    callback: (_error, msg) => {
      const connections = attached().map((s, i) => ({ cid: 100_000 + i, kind: "Leafnode", authorized_user: s.publicKey, name: s.code }));
      msg.respond(JSON.stringify({ server: { name: "simulated-responder" }, data: { server_id: "simulated", num_connections: connections.length, connections } }));
    },
  });
  const beat = () => {
    if (nc.isClosed()) return;
    for (const site of attached()) {
      nc.publish(agentSubjects(DEFAULT_SUBJECT_PREFIX, site.code).heartbeat, JSON.stringify({ version: "simulated", uptime: "1m", time: new Date().toISOString(), state: "ok" }));
    }
  };
  await nc.flush();
  beat();
  const timer = setInterval(beat, beatMs);
  return {
    cut: (codes) => {
      for (const code of codes) cut.add(code);
    },
    stop: () => {
      clearInterval(timer);
      subscription.unsubscribe();
    },
  };
}
