// Writes race (issue 9, defects 2 and 3): many concurrent PATCHes of `active` from several clients, in
// random order, must leave a Thing's identities matching the Thing as committed, and an active bus user
// always holding a credential issued after its key's revocation cutoff, in the database and at the hub.
// A write that loses its race to a delete answers 404 and leaves no audit entry.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { sqlite } from "../harness/sqlite";
import { PASSWORD, client, createMember, createOrganization, createUser, unique, type Role } from "../harness/world";

const CLIENTS = 5;
const WRITES = 50;

let bus: PlatformWithBus;
let su: PocketBase;
let org: RecordModel;
let network: RecordModel;
let owners: PocketBase[];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  su = await bus.platform.superuser();
  org = await createOrganization(su, "Race");
  network = await su.collection("overlay_networks").create({ organization: org.id, name: "net", cidr: "10.77.0.0/16" });
  // A peer whose configuration carries the blocklist the toggled hosts land on.
  await su.collection("overlay_hosts").create({ organization: org.id, network: network.id, name: "peer", overlay_ip: "10.77.0.1", active: true });
  owners = [];
  for (let i = 0; i < CLIENTS; i++) {
    const role: Role = i % 2 === 0 ? "owner" : "admin";
    const member = await createMember(su, org.id, role);
    const pb = client(bus.platform.url);
    await pb.collection("users").authWithPassword(member.email as string, PASSWORD);
    owners.push(pb);
  }
}, 120_000);
afterAll(async () => {
  await bus?.stop();
});

/** `count` writes spread over the clients, all in flight at once, each with a random value. */
async function storm(count: number, write: (pb: PocketBase, active: boolean) => Promise<unknown>): Promise<void> {
  const writes = Array.from({ length: count }, (_, i) => write(owners[i % owners.length], Math.random() < 0.5));
  const outcomes = await Promise.allSettled(writes);
  const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
  expect(failures.map((f) => String(f.reason))).toEqual([]);
}

const issuedAt = (jwt: string): number => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()).iat;

/** The bus half of the invariant, against the database and the hub. */
async function expectBusUserConsistent(userId: string, active: boolean): Promise<void> {
  const user = await su.collection("bus_users").getOne(userId);
  const account = await su.collection("bus_accounts").getFirstListItem(`organization = "${org.id}"`);
  const cutoff = (account.revocations ?? {})[user.public_key] ?? 0;
  expect(user.active).toBe(active);
  if (active) expect(issuedAt(user.jwt)).toBeGreaterThan(cutoff);
  else expect(cutoff).toBeGreaterThanOrEqual(issuedAt(user.jwt));
  expect(await busAccepts(bus.busUrl, user.creds_file)).toBe(active);
}

/** Whether the audit log holds a committed true → false of `active` on the record. */
async function deactivationCommitted(recordId: string): Promise<boolean> {
  const entries = await su.collection("audit_logs").getFullList({ filter: `record_id = "${recordId}" && action = "update"` });
  return entries.some((e) => e.before?.active === true && e.after?.active === false);
}

describe("concurrent things.active writes", () => {
  it("leave the bus user and overlay host matching the committed Thing, and kill held tokens on every committed deactivation", async () => {
    for (let round = 0; round < 3; round++) {
      const created = await owners[0].send("/api/org/things", {
        method: "POST",
        body: { name: `race-${round}`, bus: { mode: "auto" }, overlay: { mode: "auto", network_id: network.id, overlay_ip: `10.77.1.${round + 1}` } },
      });
      const device = client(bus.platform.url);
      await device.collection("things").authWithPassword(created.email, created.password);

      await storm(WRITES, (pb, active) => pb.collection("things").update(created.id, { active }));

      const thing = await su.collection("things").getOne(created.id);
      await expectBusUserConsistent(thing.bus_user, thing.active);
      const host = await su.collection("overlay_hosts").getOne(thing.overlay_host);
      expect(host.active).toBe(thing.active);
      const peer = await su.collection("overlay_hosts").getFirstListItem(`organization = "${org.id}" && name = "peer"`);
      expect(peer.config_yaml.includes(host.fingerprint)).toBe(!thing.active);

      // The token held since before the storm dies with any deactivation that committed.
      const killed = await deactivationCommitted(created.id);
      const stillValid = await device.collection("things").authRefresh().then(() => true, () => false);
      expect(stillValid).toBe(!killed);
    }
  });
});

describe("concurrent bus_users.active writes", () => {
  it("never leave an active bus user holding a credential issued at or before its cutoff", async () => {
    for (let round = 0; round < 3; round++) {
      const user = await su.collection("bus_users").create({ organization: org.id, name: `race-user-${round}`, active: true });
      await storm(WRITES, (pb, active) => pb.collection("bus_users").update(user.id, { active }));
      const committed = await su.collection("bus_users").getOne(user.id);
      await expectBusUserConsistent(user.id, committed.active);
    }
  });
});

/** A raw request as `pb`, for its status. */
async function statusOf(pb: PocketBase, method: string, path: string, body?: unknown): Promise<number> {
  const headers: Record<string, string> = { Authorization: pb.authStore.token };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${bus.platform.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return response.status;
}

/** The audit log's actions on one record in the order they were written (writes commit one at a time). */
function auditedActions(recordId: string): string[] {
  const rows = sqlite(bus.platform.dataDir, `SELECT action FROM audit_logs WHERE record_id = '${recordId}' ORDER BY rowid;`, { json: true });
  return rows ? (JSON.parse(rows) as { action: string }[]).map((row) => row.action) : [];
}

describe("a write racing a delete", () => {
  it("an invitation redeemed while it is revoked: exactly one of the two succeeds, the other is a 404", async () => {
    for (let round = 0; round < 10; round++) {
      const email = `${unique("racer")}@example.test`;
      const invitee = await createUser(su, email);
      const pb = client(bus.platform.url);
      await pb.collection("users").authWithPassword(email, PASSWORD);
      const invite = await owners[0].collection("invites").create({ organization: org.id, email, role: "member" });
      const [accepted, revoked] = await Promise.all([
        statusOf(pb, "POST", "/api/org/invites/accept", { token: invite.token }),
        statusOf(owners[1], "DELETE", `/api/collections/invites/records/${invite.id}`),
      ]);
      expect([accepted, revoked].sort()).toEqual(accepted === 200 ? [200, 404] : [204, 404]);
      const joined = await su.collection("memberships").getFullList({ filter: su.filter("user = {:user}", { user: invitee.id }) });
      expect(joined).toHaveLength(accepted === 200 ? 1 : 0);
      expect(auditedActions(invite.id)).toEqual(["create", "delete"]);
    }
  });

  it("a membership's role changed while it is deleted: the change answers 200 only if it committed first, and is audited before the delete", async () => {
    for (let round = 0; round < 10; round++) {
      const member = await createMember(su, org.id, "viewer");
      const membership = await su.collection("memberships").getFirstListItem(su.filter("user = {:user}", { user: member.id }));
      const [changed, deleted] = await Promise.all([
        statusOf(owners[0], "PATCH", `/api/collections/memberships/records/${membership.id}`, { role: "member" }),
        statusOf(owners[1], "DELETE", `/api/collections/memberships/records/${membership.id}`),
      ]);
      expect(deleted).toBe(204);
      expect([200, 404]).toContain(changed);
      expect(auditedActions(membership.id)).toEqual(changed === 200 ? ["create", "update", "delete"] : ["create", "delete"]);
    }
  });
});
