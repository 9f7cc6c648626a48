// GET /api/me/identity (spec 5 rule 12: a Thing sees only the bus user and overlay host assigned to it;
// through a route, since 4.2 forbids a device read branch on bus_*/overlay_*:
// docs/decisions/050-me-identity-route.md). What the edge agent polls: revisions always, key material on
// request.
import { createHash } from "node:crypto";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { client, PASSWORD, statusOf, useWorld } from "../harness/world";

const { platform, world: w } = useWorld();

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface Linked {
  id: string;
  active: boolean;
  revision: string;
  creds_file?: string;
  config_yaml?: string;
}
interface Identity {
  thing: { id: string; active: boolean };
  bus_user: Linked | null;
  overlay_host: Linked | null;
}

async function identity(pb: PocketBase | undefined, include = ""): Promise<{ status: number; body: Identity }> {
  const headers: Record<string, string> = pb?.authStore.token ? { Authorization: pb.authStore.token } : {};
  const query = include ? `?include=${encodeURIComponent(include)}` : "";
  const response = await fetch(`${platform.url}/api/me/identity${query}`, { headers });
  return { status: response.status, body: (await response.json()) as Identity };
}

describe("GET /api/me/identity", () => {
  it("serves a Thing its own bus user and overlay host: revisions on a poll, key material only when asked", async () => {
    const thing = await w.client("thing");
    const user = await w.su.collection("bus_users").getOne(w.a.bus_users.id);
    const host = await (await w.client("owner")).collection("overlay_hosts").getOne(w.a.overlay_hosts.id);
    expect(user.creds_file).toContain("NATS USER JWT");
    expect(host.config_yaml).toContain("NEBULA X25519 PRIVATE KEY");

    const poll = await identity(thing);
    expect(poll).toEqual({
      status: 200,
      body: {
        thing: { id: w.a.things.id, code: w.a.things.code, email: w.a.things.email, organization: w.a.organization.id, active: true },
        bus_user: { id: user.id, active: true, revision: sha256(user.creds_file) },
        overlay_host: { id: host.id, active: true, revision: sha256(host.config_yaml) },
      },
    });

    const both = await identity(thing, "creds_file,config_yaml");
    expect(both.body.bus_user?.creds_file).toBe(user.creds_file);
    expect(both.body.overlay_host?.config_yaml).toBe(host.config_yaml);
    const credsOnly = await identity(thing, "creds_file");
    expect(credsOnly.body.bus_user?.creds_file).toBe(user.creds_file);
    expect(credsOnly.body.overlay_host).not.toHaveProperty("config_yaml");

    // Another organization's Thing sees its own rows, never these.
    const foreign = client(platform.url);
    await foreign.collection("things").authWithPassword(w.b.things.email as string, PASSWORD);
    const theirs = await identity(foreign, "creds_file,config_yaml");
    expect([theirs.body.bus_user?.id, theirs.body.overlay_host?.id]).toEqual([w.b.bus_users.id, w.b.overlay_hosts.id]);
    expect(JSON.stringify(theirs.body)).not.toContain(user.creds_file);
    expect(JSON.stringify(theirs.body)).not.toContain(host.config_yaml);
  });

  it("moves the bus revision on a rotation and the overlay revision on a peer's blocklisting", async () => {
    const thing = await w.client("thing");
    const before = await identity(thing);
    const rotated = await fetch(`${platform.url}/api/me/bus-creds/rotate`, { method: "POST", headers: { Authorization: thing.authStore.token } });
    expect(rotated.status).toBe(200);
    const afterRotation = await identity(thing, "creds_file");
    expect(afterRotation.body.bus_user?.revision).not.toBe(before.body.bus_user?.revision);
    expect(afterRotation.body.bus_user?.revision).toBe(sha256(afterRotation.body.bus_user?.creds_file ?? ""));
    expect(afterRotation.body.overlay_host?.revision).toBe(before.body.overlay_host?.revision);

    // A peer's Thing deactivated: its host's certificate joins the CA's blocklist, which every host's
    // served config carries, while this host's row itself is not written.
    const org = w.a.organization.id;
    const peerHost = await w.su.collection("overlay_hosts").create({ organization: org, network: w.a.overlay_networks.id, name: "peer", overlay_ip: "10.42.0.77", active: true });
    const peer = await w.su.collection("things").create({ organization: org, name: "peer", active: true, password: PASSWORD, passwordConfirm: PASSWORD, overlay_host: peerHost.id });
    const hostRow = await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id);
    await w.su.collection("things").update(peer.id, { active: false });
    const afterBlock = await identity(thing, "config_yaml");
    expect(afterBlock.body.overlay_host?.revision).not.toBe(before.body.overlay_host?.revision);
    expect(afterBlock.body.overlay_host?.config_yaml).toContain(peerHost.fingerprint);
    expect((await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id)).updated).toBe(hostRow.updated);
  });

  it("answers null for identities a Thing does not have, and reports a suspended bus user", async () => {
    const org = w.a.organization.id;
    const bare = await w.su.collection("things").create({ organization: org, name: "bare", active: true, password: PASSWORD, passwordConfirm: PASSWORD });
    const device = client(platform.url);
    await device.collection("things").authWithPassword(bare.email, PASSWORD);
    const answer = await identity(device, "creds_file,config_yaml");
    expect(answer.body).toMatchObject({ bus_user: null, overlay_host: null, thing: { id: bare.id, active: true } });

    const suspendedUser = await w.su.collection("bus_users").create({ organization: org, name: "suspended", role: w.a.bus_roles.id, active: true });
    await w.su.collection("things").update(bare.id, { bus_user: suspendedUser.id });
    await w.su.collection("bus_users").update(suspendedUser.id, { active: false });
    expect((await identity(device)).body.bus_user).toMatchObject({ id: suspendedUser.id, active: false });
  });

  it("refuses other callers and other fields; the record API still shows a Thing no bus or overlay row", async () => {
    const thing = await w.client("thing");
    for (const include of ["seed", "creds_file,private_key", "jwt"]) expect((await identity(thing, include)).status, include).toBe(400);
    expect((await identity(undefined)).status).toBe(401);
    expect((await identity(await w.client("owner"))).status).toBe(403);
    // Spec 4.2: no device read branch on these collections.
    expect(await statusOf(thing.collection("bus_users").getOne(w.a.bus_users.id))).toBe(404);
    expect(await statusOf(thing.collection("overlay_hosts").getOne(w.a.overlay_hosts.id))).toBe(404);
    expect((await thing.collection("bus_users").getList(1, 50)).items).toEqual([]);
    expect((await thing.collection("overlay_hosts").getList(1, 50)).items).toEqual([]);
  });
});
