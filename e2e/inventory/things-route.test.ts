// POST /api/org/things (spec 4.2, 3.2 "Thing creation via route", 7) and the deactivation of a Thing
// (spec 3.2 things.active rows, items 1 and 2; 5 rule 1).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import type { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { certificateFromPem } from "../../pb_hooks_src/overlay/cert/pem";
import { useWorld, client, createMember, createUser, PASSWORD, unique, type Actor } from "../harness/world";

const { platform, world } = useWorld();

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function post(pb: PocketBase | undefined, body: unknown): Promise<Answer> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (pb?.authStore.token) headers.Authorization = pb.authStore.token;
  const response = await fetch(`${platform.url}/api/org/things`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const as = async (actor: Actor, body: unknown) => post(await world.client(actor), body);
const routeError = (status: number, message: string) => ({ status, message, data: {} });
const CREATED = { id: expect.any(String), code: expect.any(String), email: expect.any(String), password: expect.any(String) };

/** Row counts of everything the route could write. */
async function counts() {
  const total = async (collection: string) => (await world.su.collection(collection).getList(1, 1)).totalItems;
  return { things: await total("things"), bus_users: await total("bus_users"), overlay_hosts: await total("overlay_hosts") };
}

/** Runs `work` and asserts that it left every count unchanged. */
async function writesNothing(work: () => Promise<void>): Promise<void> {
  const before = await counts();
  await work();
  expect(await counts()).toEqual(before);
}

const thingRecord = (id: string) => world.su.collection("things").getOne(id);

describe("POST /api/org/things: body validation (400, nothing created)", () => {
  it.each([
    ["name missing", {}, "name is required"],
    ["name blank", { name: "   " }, "name is required"],
    ["name null", { name: null }, "name is required"],
    ["name a number", { name: 7 }, "name must be a string"],
    ["name an object", { name: { first: "x" } }, "name must be a string"],
    ["code a number", { name: "x", code: 12 }, "code must be a string"],
    ["type an array", { name: "x", type: ["a"] }, "type must be a string"],
    ["metadata a string", { name: "x", metadata: "{}" }, "metadata must be an object"],
    ["metadata an array", { name: "x", metadata: [1, 2] }, "metadata must be an object"],
    ["metadata a number", { name: "x", metadata: 3 }, "metadata must be an object"],
    ["bus a string", { name: "x", bus: "auto" }, "bus must be an object"],
    ["bus an array", { name: "x", bus: ["auto"] }, "bus must be an object"],
    ["overlay a boolean", { name: "x", overlay: true }, "overlay must be an object"],
    ["bus.mode unrecognised", { name: "x", bus: { mode: "magic" } }, "bus.mode must be one of auto, link, none"],
    ["bus.mode wrong case", { name: "x", bus: { mode: "AUTO" } }, "bus.mode must be one of auto, link, none"],
    ["bus.mode a number", { name: "x", bus: { mode: 1 } }, "bus.mode must be a string"],
    ["overlay.mode unrecognised", { name: "x", overlay: { mode: "manual" } }, "overlay.mode must be one of auto, link, none"],
    ["bus.user_id a number", { name: "x", bus: { mode: "link", user_id: 5 } }, "bus.user_id must be a string"],
    ["bus link without user_id", { name: "x", bus: { mode: "link" } }, "bus.user_id is required for bus.mode link"],
    ["overlay link without host_id", { name: "x", overlay: { mode: "link" } }, "overlay.host_id is required for overlay.mode link"],
  ])("%s", async (_, body, message) => {
    await writesNothing(async () => {
      expect(await as("owner", body)).toEqual({ status: 400, body: routeError(400, message) });
    });
  });

  it("refuses a code the schema cannot store with a 400 naming the code", async () => {
    for (const code of ["has space", "-leading-hyphen", "emoji☃", "a@b", "x".repeat(65)]) {
      await writesNothing(async () => {
        const answer = await as("owner", { name: "bad code", code });
        expect(answer.status, code).toBe(400);
        expect(answer.body.message, code).toMatch(/^code /);
      });
    }
  });

  it("refuses an overlong name or description with a 400 naming the field", async () => {
    for (const [field, body] of [
      ["name", { name: "n".repeat(201) }],
      ["description", { name: "ok", description: "d".repeat(2001) }],
    ] as const) {
      await writesNothing(async () => {
        const answer = await as("owner", body);
        expect(answer.status, field).toBe(400);
        expect(answer.body.message, field).toMatch(new RegExp(`^${field} `));
      });
    }
  });
});

describe("POST /api/org/things: who may call", () => {
  it("401 anonymous, 403 for a Thing session", async () => {
    await writesNothing(async () => {
      const anonymous = await post(undefined, { name: "x" });
      expect(anonymous.status).toBe(401);
      const thing = await as("thing", { name: "x" });
      expect(thing.status).toBe(403);
      expect(thing.body.status).toBe(403);
    });
  });

  it.each(["viewer", "dashboard"] as const)("403 for %s", async (role) => {
    await writesNothing(async () => {
      expect(await as(role, { name: "x" })).toEqual({
        status: 403,
        body: routeError(403, "creating Things needs the member, admin or owner role"),
      });
    });
  });

  it("400 without an active organization (blank current_organization), operator included", async () => {
    for (const actor of ["outsider", "operator"] as const) {
      await writesNothing(async () => {
        expect(await as(actor, { name: "x" }), actor).toEqual({
          status: 400,
          body: routeError(400, "no active organization: set current_organization first"),
        });
      });
    }
  });

  it("403 for a Platform Operator whose active organization it is not a member of", async () => {
    // The invariants keep current_organization inside the user's memberships for every writer, so this
    // state is forged in the database directly: the route must not trust current_organization alone.
    const operator = await createUser(world.su, `${unique("op-forged")}@example.test`, { is_operator: true });
    execFileSync("sqlite3", [
      join(platform.dataDir, "data.db"),
      ".timeout 5000",
      `UPDATE users SET current_organization = '${world.a.organization.id}' WHERE id = '${operator.id}'`,
    ]);
    const pb = client(platform.url);
    await pb.collection("users").authWithPassword(operator.email as string, "correct-horse-battery");
    expect(pb.authStore.record?.current_organization).toBe(world.a.organization.id);
    await writesNothing(async () => {
      expect(await post(pb, { name: "x" })).toEqual({ status: 403, body: routeError(403, "not a member of the active organization") });
    });
  });

  it("a member gets 403 for any identity mode other than none, and 200 with none", async () => {
    for (const block of [
      { bus: { mode: "link", user_id: world.a.bus_users.id } },
      { bus: { mode: "auto" } },
      { overlay: { mode: "link", host_id: world.a.overlay_hosts.id } },
      { overlay: { mode: "auto" } },
      { bus: { mode: "none" }, overlay: { mode: "auto" } },
    ]) {
      await writesNothing(async () => {
        expect(await as("member", { name: "x", ...block }), JSON.stringify(block)).toEqual({
          status: 403,
          body: routeError(403, "only an owner or admin may create bus or overlay identities"),
        });
      });
    }
    for (const block of [{}, { bus: { mode: "none" }, overlay: { mode: "none" } }, { bus: {}, overlay: null }]) {
      const answer = await as("member", { name: "member thing", ...block });
      expect(answer, JSON.stringify(block)).toEqual({ status: 200, body: CREATED });
      const thing = await thingRecord(answer.body.id as string);
      expect([thing.bus_user, thing.overlay_host, thing.active]).toEqual(["", "", true]);
    }
  });
});

describe("POST /api/org/things: creation", () => {
  it("answers exactly {id, code, email, password} and stores the request's fields", async () => {
    const answer = await as("admin", {
      name: "  Boiler  ",
      description: "basement",
      type: world.a.thing_types.id,
      location: world.a.locations.id,
      metadata: { floor: -1, tags: ["heat"] },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(["code", "email", "id", "password"]);
    const { id, code, email, password } = answer.body as Record<string, string>;
    expect(code).toMatch(/^SENS-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(email).toBe(`${code}@${world.a.organization.code}.thing.local`);
    expect(password.length).toBeGreaterThanOrEqual(16);
    const thing = await thingRecord(id);
    expect(thing).toMatchObject({
      name: "Boiler",
      code,
      email,
      description: "basement",
      type: world.a.thing_types.id,
      location: world.a.locations.id,
      metadata: { floor: -1, tags: ["heat"] },
      organization: world.a.organization.id,
      active: true,
      bus_user: "",
      overlay_host: "",
    });
  });

  it("generates a code under the default prefix without a type", async () => {
    const answer = await as("owner", { name: "untyped", code: "" });
    expect(answer.status).toBe(200);
    expect(answer.body.code).toMatch(/^TH-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(answer.body.email).toBe(`${answer.body.code}@${world.a.organization.code}.thing.local`);
  });

  it("returns the password once: no read shows it, and the Thing signs in with it and is active", async () => {
    const answer = await as("owner", { name: "sign-in" });
    const { id, email, password } = answer.body as Record<string, string>;
    const owner = await world.client("owner");
    const reads = [
      await world.su.collection("things").getOne(id),
      await owner.collection("things").getOne(id),
      ...(await owner.collection("things").getFullList({ filter: `id = "${id}"` })),
    ];
    for (const read of reads) {
      expect(JSON.stringify(read)).not.toContain(password);
      expect(read).not.toHaveProperty("password");
    }
    const device = client(platform.url);
    const auth = await device.collection("things").authWithPassword(email, password);
    expect(auth.record).toMatchObject({ id, active: true, organization: world.a.organization.id });
  });

  it("refuses a supplied code another Thing of the organization holds in any letter case; other organizations are separate", async () => {
    const code = unique("Dup").replace(/[^A-Za-z0-9-]/g, "");
    const first = await as("owner", { name: "first", code });
    expect(first.status).toBe(200);
    expect(first.body.code).toBe(code);
    expect(first.body.email).toBe(`${code}@${world.a.organization.code}.thing.local`);
    for (const variant of [code, code.toUpperCase(), code.toLowerCase(), world.a.things.code.toLowerCase()]) {
      await writesNothing(async () => {
        expect(await as("member", { name: "second", code: variant }), variant).toEqual({
          status: 400,
          body: routeError(400, "another Thing of the organization already uses this code"),
        });
      });
    }
    const foreign = await as("foreign_owner", { name: "elsewhere", code: code.toLowerCase() });
    expect(foreign.status).toBe(200);
    expect(foreign.body.email).toBe(`${code.toLowerCase()}@${world.b.organization.code}.thing.local`);
  });

  it.each([
    ["type", () => ({ type: world.b.thing_types.id })],
    ["location", () => ({ location: world.b.locations.id })],
    ["type", () => ({ type: "nosuchrecord000" })],
    ["location", () => ({ location: world.a.thing_types.id })],
  ])("refuses a %s outside the organization (400, nothing created)", async (field, extra) => {
    await writesNothing(async () => {
      expect(await as("owner", { name: "x", ...extra() })).toEqual({
        status: 400,
        body: routeError(400, `${field} does not name a record of the organization`),
      });
    });
  });

  it("links a bus user and an overlay host of the organization", async () => {
    const answer = await as("owner", {
      name: "linked",
      bus: { mode: "link", user_id: world.a.bus_users.id },
      overlay: { mode: "link", host_id: world.a.overlay_hosts.id },
    });
    expect(answer).toEqual({ status: 200, body: CREATED });
    const thing = await thingRecord(answer.body.id as string);
    expect([thing.bus_user, thing.overlay_host]).toEqual([world.a.bus_users.id, world.a.overlay_hosts.id]);
  });

  it.each([
    ["bus.user_id", () => ({ bus: { mode: "link", user_id: world.b.bus_users.id } })],
    ["overlay.host_id", () => ({ overlay: { mode: "link", host_id: world.b.overlay_hosts.id } })],
    // A valid bus link does not survive a foreign overlay link: one transaction.
    ["overlay.host_id", () => ({ bus: { mode: "link", user_id: world.a.bus_users.id }, overlay: { mode: "link", host_id: world.b.overlay_hosts.id } })],
    ["bus.user_id", () => ({ bus: { mode: "link", user_id: world.a.overlay_hosts.id } })],
  ])("refuses %s of another organization (400, nothing created)", async (path, extra) => {
    await writesNothing(async () => {
      expect(await as("admin", { name: "x", ...extra() })).toEqual({
        status: 400,
        body: routeError(400, `${path} does not name a record of the organization`),
      });
    });
  });

  it("bus.mode auto mints a bus user with the default role (or the given one) and links it", async () => {
    const created = await as("owner", { name: "auto", bus: { mode: "auto" } });
    expect(created.status).toBe(200);
    const thing = await thingRecord(created.body.id as string);
    const user = await world.su.collection("bus_users").getOne(thing.bus_user);
    const defaultRole = await world.su.collection("bus_roles").getFirstListItem(`organization = "${world.a.organization.id}" && is_default = true`);
    expect(user).toMatchObject({ organization: world.a.organization.id, role: defaultRole.id, active: true, name: created.body.code });
    expect(user.creds_file).toContain("-----BEGIN NATS USER JWT-----");
    const withRole = await as("owner", { name: "auto-role", bus: { mode: "auto", role_id: world.a.bus_roles.id } });
    expect((await world.su.collection("bus_users").getOne((await thingRecord(withRole.body.id as string)).bus_user)).role).toBe(world.a.bus_roles.id);
  });

  it("is one transaction: a minted bus user is rolled back when a later part fails", async () => {
    await writesNothing(async () => {
      const answer = await as("owner", { name: "half", bus: { mode: "auto" }, overlay: { mode: "link", host_id: world.b.overlay_hosts.id } });
      expect(answer).toEqual({ status: 400, body: routeError(400, "overlay.host_id does not name a record of the organization") });
    });
  });

  it("overlay.mode auto mints a signed host named after the Thing's code and links it", async () => {
    const created = await as("owner", { name: "auto-host", overlay: { mode: "auto", network_id: world.a.overlay_networks.id, overlay_ip: "10.42.77.5" } });
    expect(created.status).toBe(200);
    const thing = await thingRecord(created.body.id as string);
    const host = await world.su.collection("overlay_hosts").getOne(thing.overlay_host);
    expect(host).toMatchObject({ organization: world.a.organization.id, network: world.a.overlay_networks.id, name: created.body.code, overlay_ip: "10.42.77.5", active: true });
    expect(host.cert).toContain("-----BEGIN NEBULA CERTIFICATE-----");
    expect(host.config_yaml).toContain("NEBULA X25519 PRIVATE KEY");
  });

  it("concurrent auto creations each get key pairs of their own and a certificate naming their own code (made ahead of the transaction)", async () => {
    const owner = await world.client("owner");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(owner, { name: `stocked ${i}`, bus: { mode: "auto" }, overlay: { mode: "auto", network_id: world.a.overlay_networks.id, overlay_ip: `10.42.90.${i + 1}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const things = await Promise.all(answers.map((a) => thingRecord(a.body.id as string)));
    const users = await Promise.all(things.map((t) => world.su.collection("bus_users").getOne(t.bus_user)));
    const hosts = await Promise.all(things.map((t) => world.su.collection("overlay_hosts").getOne(t.overlay_host)));
    expect(new Set(users.map((u) => u.public_key)).size).toBe(20);
    const hostKeys = hosts.map((h) => /-----BEGIN NEBULA X25519 PRIVATE KEY-----[^-]+/.exec(h.config_yaml as string)?.[0]);
    expect(hostKeys.every(Boolean)).toBe(true);
    expect(new Set(hostKeys).size).toBe(20);
    // The code is drawn and the credentials signed before the transaction (lib/presigned.ts).
    expect(new Set(things.map((t) => t.code)).size).toBe(20);
    hosts.forEach((host, i) => {
      expect(host.name).toBe(things[i].code);
      expect(certificateFromPem(host.cert as string).details.name).toBe(things[i].code);
    });
  });

  it.each([
    ["another organization's network", () => ({ network_id: world.b.overlay_networks.id, overlay_ip: "10.42.78.5" }), "overlay.network_id does not name a record of the organization"],
    ["an address outside the network", () => ({ network_id: world.a.overlay_networks.id, overlay_ip: "10.43.0.5" }), "overlay.overlay_ip 10.43.0.5 is outside the network 10.42.0.0/16"],
    ["an address in use", () => ({ network_id: world.a.overlay_networks.id, overlay_ip: "10.42.0.10" }), "overlay.overlay_ip 10.42.0.10 is already used in the network"],
    ["no network", () => ({ overlay_ip: "10.42.78.6" }), "overlay.network_id is required for overlay.mode auto"],
  ])("overlay.mode auto with %s answers 400 and creates nothing, bus user included", async (_label, overlay, message) => {
    await writesNothing(async () => {
      const answer = await as("owner", { name: "half", bus: { mode: "auto" }, overlay: { mode: "auto", ...overlay() } });
      expect(answer).toEqual({ status: 400, body: routeError(400, message) });
    });
  });

  it("bus.mode auto with another organization's role answers 400 and creates nothing", async () => {
    await writesNothing(async () => {
      expect(await as("owner", { name: "auto", bus: { mode: "auto", role_id: world.b.bus_roles.id } })).toEqual({
        status: 400,
        body: routeError(400, "bus.role_id does not name a role of the organization"),
      });
    });
  });

  it("while the organization is suspended: auto answers 'no active bus account for the organization', link and none still work", async () => {
    const suspended = await world.su.collection("organizations").create({ name: "Paused", code: unique("paused"), active: true });
    const owner = await createMember(world.su, suspended.id, "owner");
    const spare = await world.su.collection("bus_users").create({ organization: suspended.id, name: "spare", active: true });
    await world.su.collection("organizations").update(suspended.id, { active: false });
    const pb = client(platform.url);
    await pb.collection("users").authWithPassword(owner.email as string, PASSWORD);
    await writesNothing(async () => {
      expect(await post(pb, { name: "auto", bus: { mode: "auto" } })).toEqual({
        status: 400,
        body: routeError(400, "no active bus account for the organization"),
      });
    });
    expect((await post(pb, { name: "linked", bus: { mode: "link", user_id: spare.id } })).status).toBe(200);
    expect((await post(pb, { name: "plain" })).status).toBe(200);
    // A bus user created directly is refused the same way, a SuperUser's too: the account issues nothing.
    for (const writer of [pb, world.su]) {
      const refusal = await writer.collection("bus_users").create({ organization: suspended.id, name: unique("direct") }).catch((e: ClientResponseError) => e);
      expect(refusal).toMatchObject({ status: 400, response: { message: "No active bus account for the organization." } });
    }
    expect((await world.su.collection("bus_users").getFullList({ filter: `organization = "${suspended.id}"` })).map((u) => u.name)).toEqual(["spare"]);
  });
});

describe("deactivating a Thing", () => {
  const viewOwn = async (pb: PocketBase, id: string) => {
    const response = await fetch(`${platform.url}/api/collections/things/records/${id}`, { headers: { Authorization: pb.authStore.token } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const signIn = async (email: string, password: string) => {
    const pb = client(platform.url);
    await pb.collection("things").authWithPassword(email, password);
    return pb;
  };

  it("kills held tokens at once, refuses sign-in, and a reactivated Thing must sign in again", async () => {
    const { id, email, password } = (await as("owner", { name: "decommission me" })).body as Record<string, string>;
    const device = await signIn(email, password);
    expect(await viewOwn(device, id)).toMatchObject({ status: 200, body: { id, email } });

    // A member may not deactivate (rule-rejected update: 404), and the token keeps working.
    const member = await world.client("member");
    await expect(member.collection("things").update(id, { active: false })).rejects.toMatchObject({ status: 404 });
    expect((await thingRecord(id)).active).toBe(true);
    expect((await viewOwn(device, id)).status).toBe(200);

    const owner = await world.client("owner");
    await owner.collection("things").update(id, { active: false });
    const refused = await viewOwn(device, id);
    expect([401, 403, 404]).toContain(refused.status);
    expect(refused.body).not.toHaveProperty("id");
    // The auth rule `active = true` refuses the sign-in (PocketBase answers 403 for an unmet auth rule).
    await expect(signIn(email, password)).rejects.toMatchObject({ status: 403 });

    await owner.collection("things").update(id, { active: true });
    expect((await viewOwn(device, id)).status).not.toBe(200); // the old session stays dead
    const again = await signIn(email, password);
    expect(again.authStore.token).not.toBe(device.authStore.token);
    expect(await viewOwn(again, id)).toMatchObject({ status: 200, body: { id, active: true } });
  });

  it("refuses a member's other owner/admin-only writes too (password, e-mail, identities)", async () => {
    const { id } = (await as("owner", { name: "guarded" })).body as Record<string, string>;
    const member = await world.client("member");
    for (const patch of [
      { password: "another-password-1", passwordConfirm: "another-password-1" },
      { email: "x@elsewhere.test" },
      { bus_user: world.a.bus_users.id },
      { overlay_host: world.a.overlay_hosts.id },
    ]) {
      await expect(member.collection("things").update(id, patch), Object.keys(patch)[0]).rejects.toMatchObject({ status: 404 });
    }
    // The member may still edit inventory fields.
    expect((await member.collection("things").update(id, { description: "edited" })).description).toBe("edited");
  });
});
