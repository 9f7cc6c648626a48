// Writes the server owns (found by black-box audits, 2026-11): credential and certificate fields are set by
// the server only, a Thing keeps a code and its own organization's address, bus permissions and account
// limits must have a shape the credential can carry, and a network's cidr must hold hosts; each refusal is
// a 400 that writes nothing.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { accountNoticeSubject, noticeSlotOf, otherSlotsDenied, overlayNoticeSubject, userNoticeSubject } from "../../common/bus/notices";
import { PASSWORD, client, createMember, createOrganization, useWorld, unique } from "../harness/world";

const { platform, world: w } = useWorld();

/** A raw write as `pb` to `/api/<path>`, for its status and message. */
async function send(pb: PocketBase, method: "POST" | "PATCH", path: string, body: unknown): Promise<{ status: number; message: string }> {
  const response = await fetch(`${platform.url}/api/${path}`, {
    method,
    headers: { Authorization: pb.authStore.token, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, message: ((await response.json()) as { message: string }).message };
}

const patch = (pb: PocketBase, collection: string, id: string, body: unknown) => send(pb, "PATCH", `collections/${collection}/records/${id}`, body);
const create = (pb: PocketBase, collection: string, body: unknown) => send(pb, "POST", `collections/${collection}/records`, body);

describe("fields only the server writes", () => {
  it("refuses a bus user's key, JWT and creds file from an owner, and lets the record be echoed back", async () => {
    const owner = await w.client("owner");
    const user = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("sf") });
    const other = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("sf") });
    expect(await patch(owner, "bus_users", user.id, { public_key: other.public_key })).toEqual({ status: 400, message: "Public_key: set by the server, not writable." });
    expect((await patch(owner, "bus_users", user.id, { jwt: "garbage", creds_file: "garbage" })).status).toBe(400);
    const after = await w.su.collection("bus_users").getOne(user.id);
    expect([after.public_key, after.jwt, after.creds_file]).toEqual([user.public_key, user.jwt, user.creds_file]);
    const echoed = await owner.collection("bus_users").update(user.id, { ...after, name: "renamed" });
    expect([echoed.name, echoed.public_key]).toEqual(["renamed", user.public_key]);
  });

  it("refuses an overlay host's fingerprint and certificate from an owner", async () => {
    const owner = await w.client("owner");
    const host = w.a.overlay_hosts;
    for (const body of [{ fingerprint: "0000" }, { cert: "garbage" }, { not_after: "2030-01-01 00:00:00.000Z" }]) {
      expect((await patch(owner, "overlay_hosts", host.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    const after = await w.su.collection("overlay_hosts").getOne(host.id);
    expect([after.fingerprint, after.cert]).toEqual([host.fingerprint, host.cert]);
    // A blank certificate is the renewal the console asks for: re-signed by the server.
    expect((await patch(owner, "overlay_hosts", host.id, { cert: "" })).status).toBe(200);
    expect((await w.su.collection("overlay_hosts").getOne(host.id)).fingerprint).not.toBe(host.fingerprint);
  });

  it("refuses a Thing's e-mail from an owner, and a blank code from anyone", async () => {
    const owner = await w.client("owner");
    const thing = w.a.things;
    const squat = `SQUAT-1@${w.b.organization.code}.thing.local`;
    expect(await patch(owner, "things", thing.id, { email: squat })).toEqual({ status: 400, message: "Email: set by the server, not writable." });
    for (const code of ["", "   ", null, ["a", "b"], { a: 1 }]) {
      expect(await patch(owner, "things", thing.id, { code }), JSON.stringify(code)).toEqual({ status: 400, message: "Code cannot be blank." });
    }
    expect((await patch(w.su, "things", thing.id, { code: "" })).status).toBe(400);
    const after = await w.su.collection("things").getOne(thing.id);
    expect([after.email, after.code]).toEqual([thing.email, thing.code]);
  });
});

describe("trust anchors: a Platform Operator's direct edit", () => {
  const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString());

  it("refuses a bus account's keys and claim, and lets its name, active and limits through", async () => {
    const operator = await w.client("operator");
    const account = await w.su.collection("bus_accounts").getOne(w.a.bus_accounts.id);
    const other = w.b.bus_accounts;
    expect(await patch(operator, "bus_accounts", account.id, { signing_keys: other.signing_keys })).toEqual({ status: 400, message: "Signing_keys: set by the server, not writable." });
    for (const body of [{ public_key: other.public_key }, { jwt: "garbage" }, { revocations: { UABC: 1 } }, { bus_confirmed: !account.bus_confirmed }]) {
      expect((await patch(operator, "bus_accounts", account.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    const before = await w.su.collection("bus_accounts").getOne(account.id);
    expect([before.signing_keys, before.public_key, before.jwt]).toEqual([account.signing_keys, account.public_key, account.jwt]);

    const limits = { ...before.limits, max_connections: 7 };
    const echoed = await operator.collection("bus_accounts").update(account.id, { ...before, limits });
    expect(echoed.limits).toEqual(limits);
    expect(claimsOf((await w.su.collection("bus_accounts").getOne(account.id)).jwt).nats.limits.conn).toBe(7);
  });

  it("refuses limits the account's claim cannot carry, from every writer", async () => {
    const operator = await w.client("operator");
    const account = await w.su.collection("bus_accounts").getOne(w.a.bus_accounts.id);
    const refusals: [unknown, string][] = [
      ["garbage", "Limits must be an object with max_connections, max_subscriptions, max_payload, max_persist_disk_storage, max_persist_memory_storage."],
      [{ ...account.limits, max_payload: "abc" }, 'Limits max_payload must be a whole number, -1 (unlimited) or more, got "abc".'],
      [{ ...account.limits, max_connections: -5 }, "Limits max_connections must be a whole number, -1 (unlimited) or more, got -5."],
      [{ ...account.limits, max_conections: 5 }, "Limits has unknown keys: max_conections."],
    ];
    for (const [limits, message] of refusals) {
      expect(await patch(operator, "bus_accounts", account.id, { limits }), JSON.stringify(limits)).toEqual({ status: 400, message });
      expect((await patch(w.su, "bus_accounts", account.id, { limits })).status).toBe(400);
    }
    const after = await w.su.collection("bus_accounts").getOne(account.id);
    expect([after.limits, after.jwt]).toEqual([account.limits, account.jwt]);
  });

  it("refuses an overlay CA's certificate and rotation state, and lets its name through", async () => {
    const operator = await w.client("operator");
    const ca = await w.su.collection("overlay_ca").getOne(w.a.overlay_ca.id);
    expect(await patch(operator, "overlay_ca", ca.id, { cert: "garbage" })).toEqual({ status: 400, message: "Cert: set by the server, not writable." });
    for (const body of [{ fingerprint: "00" }, { rotation: "committed" }, { revoked_fingerprints: [] }, { next_cert: "x" }]) {
      expect((await patch(operator, "overlay_ca", ca.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await operator.collection("overlay_ca").update(ca.id, { ...ca, name: "renamed" })).name).toBe("renamed");
    const after = await w.su.collection("overlay_ca").getOne(ca.id);
    expect([after.cert, after.fingerprint, after.rotation]).toEqual([ca.cert, ca.fingerprint, ca.rotation]);
  });

  it("a CA certificate a SuperUser broke refuses new hosts in plain words", async () => {
    const organization = await createOrganization(w.su, "BrokenCa");
    const network = await w.su.collection("overlay_networks").create({ organization: organization.id, name: "n", cidr: "10.50.0.0/16" });
    const ca = await w.su.collection("overlay_ca").getFirstListItem(`organization = "${organization.id}"`);
    await w.su.collection("overlay_ca").update(ca.id, { cert: "-----BEGIN NEBULA CERTIFICATE-----\nnot a certificate\n-----END NEBULA CERTIFICATE-----\n" });
    const owner = client(platform.url);
    await owner.collection("users").authWithPassword((await createMember(w.su, organization.id, "owner")).email as string, PASSWORD);

    const direct = await create(owner, "overlay_hosts", { organization: organization.id, network: network.id, name: "h", overlay_ip: "10.50.0.5", active: true });
    const routed = await send(owner, "POST", "org/things", { name: "t", overlay: { mode: "auto", network_id: network.id, overlay_ip: "10.50.0.6" } });
    for (const refusal of [direct, routed]) {
      expect(refusal.status).toBe(400);
      expect(refusal.message).toMatch(/overlay CA certificate cannot be read/);
      expect(refusal.message).not.toMatch(/Error\b|\bat\b|\n/);
    }
    expect((await w.su.collection("overlay_hosts").getList(1, 1, { filter: `organization = "${organization.id}"` })).totalItems).toBe(0);
  });
});

describe("overlay network cidr", () => {
  it("is checked at the network's own write, by every writer, so a network never blocks its hosts", async () => {
    const owner = await w.client("owner");
    const network = w.a.overlay_networks;
    const refusals: [string, string][] = [
      ["zzzz", 'The overlay network\'s cidr is not an IPv4 network in CIDR notation (a.b.c.d/n): "zzzz".'],
      ["10.42.0.0", 'The overlay network\'s cidr is not an IPv4 network in CIDR notation (a.b.c.d/n): "10.42.0.0".'],
      ["10.42.0.4/31", "The overlay network 10.42.0.4/31 is too narrow for hosts (at most /30)."],
    ];
    for (const [cidr, message] of refusals) {
      expect(await patch(owner, "overlay_networks", network.id, { cidr }), cidr).toEqual({ status: 400, message });
      expect((await patch(w.su, "overlay_networks", network.id, { cidr })).status, cidr).toBe(400);
      expect((await create(owner, "overlay_networks", { organization: w.a.organization.id, name: unique("net"), cidr })).status, cidr).toBe(400);
    }
    expect((await w.su.collection("overlay_networks").getOne(network.id)).cidr).toBe(network.cidr);
    const host = w.a.overlay_hosts;
    expect((await owner.collection("overlay_hosts").update(host.id, { groups: ["after-refusals"] })).groups).toEqual(["after-refusals"]);
  });
});

describe("values the record API used to take as given (second audit, 2026-11-25)", () => {
  it("a Thing's e-mail is the server's on create too, whoever sends one", async () => {
    const member = await w.client("member");
    const squat = `SQUAT-2@${w.b.organization.code}.thing.local`;
    const created = await member.collection("things").create({ organization: w.a.organization.id, name: "squatter", code: "STK1", email: squat, password: PASSWORD, passwordConfirm: PASSWORD });
    expect(created.email).toBeUndefined();
    expect((await w.su.collection("things").getOne(created.id)).email).toBe(`STK1@${w.a.organization.code}.thing.local`);
  });

  it("a bool sent as anything but a boolean is refused, on create and update", async () => {
    const owner = await w.client("owner");
    const thing = await w.su.collection("things").create({ organization: w.a.organization.id, name: unique("flag"), active: true, password: PASSWORD, passwordConfirm: PASSWORD });
    for (const active of ["yes", 1, 0, null, ["true"], {}]) {
      expect(await patch(owner, "things", thing.id, { active }), JSON.stringify(active)).toEqual({ status: 400, message: "Active must be true or false." });
    }
    expect((await w.su.collection("things").getOne(thing.id)).active).toBe(true);
    expect((await patch(await w.client("operator"), "organizations", w.b.organization.id, { active: "yes" })).status).toBe(400);
    expect((await create(owner, "overlay_hosts", { organization: w.a.organization.id, network: w.a.overlay_networks.id, name: unique("h"), overlay_ip: "10.42.1.1", is_lighthouse: "on" })).status).toBe(400);
    // The strings "true" and "false", which the record API reads right, stay accepted.
    expect((await patch(owner, "things", thing.id, { active: "true" })).status).toBe(200);
  });

  it("a bool is checked in PocketBase's multipart JSON (@jsonPayload) too, which /api/batch sends every item as (third audit)", async () => {
    const owner = await w.client("owner");
    const thing = await w.su.collection("things").create({ organization: w.a.organization.id, name: unique("batch"), active: true, password: PASSWORD, passwordConfirm: PASSWORD });
    const form = new FormData();
    form.append("@jsonPayload", JSON.stringify({ active: "yes" }));
    const multipart = await fetch(`${platform.url}/api/collections/things/records/${thing.id}`, { method: "PATCH", headers: { Authorization: owner.authStore.token }, body: form });
    expect(multipart.status).toBe(400);

    // The batch API is off by default; a SuperUser turns it on.
    await w.su.settings.update({ batch: { enabled: true, maxRequests: 10, timeout: 5 } });
    try {
      const batch = (requests: unknown[]) => send(owner, "POST", "batch", { requests });
      const url = `/api/collections/things/records/${thing.id}`;
      expect((await batch([{ method: "PATCH", url, body: { active: "yes" } }])).status).toBe(400);
      expect((await batch([{ method: "PATCH", url, body: { active: 0 } }])).status).toBe(400);
      expect((await batch([{ method: "POST", url: "/api/collections/things/records", body: { organization: w.a.organization.id, name: unique("b"), active: "yes", password: PASSWORD, passwordConfirm: PASSWORD } }])).status).toBe(400);
      expect((await w.su.collection("things").getOne(thing.id)).active).toBe(true);
      expect((await batch([{ method: "PATCH", url, body: { active: false } }])).status).toBe(200);
      expect((await w.su.collection("things").getOne(thing.id)).active).toBe(false);
    } finally {
      await w.su.settings.update({ batch: { enabled: false } });
    }
  });

  it("an invitation's inviter is its caller, not what the body says", async () => {
    const owner = await w.client("owner");
    const invite = await owner.collection("invites").create({ organization: w.a.organization.id, email: `${unique("inv")}@example.test`, role: "member", invited_by: w.users.foreign_owner.id });
    expect(invite.invited_by).toBe(w.users.owner.id);
  });

  it("a lighthouse's public endpoint must be host:port, since every peer's config carries it", async () => {
    const owner = await w.client("owner");
    const body = { organization: w.a.organization.id, network: w.a.overlay_networks.id, name: unique("lh"), overlay_ip: "10.42.2.1", is_lighthouse: true, active: true };
    expect(await create(owner, "overlay_hosts", { ...body, public_endpoint: "not an endpoint" })).toEqual({
      status: 400, message: 'Public_endpoint must be host:port (for example 203.0.113.7:4242), got "not an endpoint".',
    });
    expect((await create(owner, "overlay_hosts", { ...body, public_endpoint: "203.0.113.7:4242" })).status).toBe(200);
  });

  it("the system and operator organizations cannot be deleted, by a SuperUser either", async () => {
    // This world was not bootstrapped: the two are made here as bootstrap makes them.
    for (const flag of ["is_system_org", "is_operator_org"]) {
      const organization = await w.su.collection("organizations").create({ name: flag, code: unique("platform"), active: true, [flag]: true });
      const response = await fetch(`${platform.url}/api/collections/organizations/records/${organization.id}`, { method: "DELETE", headers: { Authorization: w.su.authStore.token } });
      expect({ status: response.status, message: ((await response.json()) as { message: string }).message }).toEqual({ status: 400, message: "The operator and system organizations cannot be deleted." });
      expect((await w.su.collection("organizations").getOne(organization.id)).id).toBe(organization.id);
    }
  });
});

describe("bus permissions", () => {
  const MESSAGE = "must be a list of subjects, or an object with allow and deny lists of subjects.";

  it("refuses shapes a credential cannot carry, on bus users and roles, on create and update", async () => {
    const owner = await w.client("owner");
    for (const value of ["telemetry.>", { allow: "telemetry.>" }, { deny: ">" }, { allow: [5] }, 5]) {
      const user = await create(owner, "bus_users", { organization: w.a.organization.id, name: unique("perm"), publish_permissions: value });
      expect(user, JSON.stringify(value)).toEqual({ status: 400, message: `Publish_permissions ${MESSAGE}` });
      const role = await create(owner, "bus_roles", { organization: w.a.organization.id, name: unique("perm"), subscribe_permissions: value });
      expect(role, JSON.stringify(value)).toEqual({ status: 400, message: `Subscribe_permissions ${MESSAGE}` });
    }
    expect((await patch(owner, "bus_users", w.a.bus_users.id, { subscribe_permissions: { deny: ">" } })).status).toBe(400);
  });

  it("signs the shapes it accepts into the credential", async () => {
    const owner = await w.client("owner");
    const user = await owner.collection("bus_users").create({
      organization: w.a.organization.id, name: unique("perm"), publish_permissions: { allow: ["telemetry.>"], deny: ["telemetry.secret"] }, subscribe_permissions: ["cmd.>"],
    });
    const claims = JSON.parse(Buffer.from((await w.su.collection("bus_users").getOne(user.id)).jwt.split(".")[1], "base64url").toString());
    // With the change notices every credential carries (common/bus/notices.ts): its own, none of another's.
    const slot = noticeSlotOf(claims.nats.tags) as number;
    expect(claims.nats.pub).toEqual({ allow: ["telemetry.>"], deny: ["telemetry.secret", "_PN.>"] });
    expect(claims.nats.sub).toEqual({
      allow: ["cmd.>", userNoticeSubject("*", slot), accountNoticeSubject("*"), overlayNoticeSubject("*")],
      deny: otherSlotsDenied(slot),
    });
  });
});
