// A populated platform for authorization tests: two organizations, one user per role in the first,
// an owner in the second, a Platform Operator without membership, an outsider, a Thing, and one record
// of every collection in each organization. Everything is seeded by a SuperUser (rules bypassed).
import PocketBase, { ClientResponseError, type RecordModel } from "pocketbase";
import { afterAll, beforeAll } from "vitest";
import { client, startPlatform, type Platform, type PlatformOptions } from "./platform";

export { client };

export const ROLES = ["owner", "admin", "member", "viewer", "dashboard"] as const;
export type Role = (typeof ROLES)[number];
export type Actor = Role | "operator" | "outsider" | "foreign_owner" | "thing" | "anonymous";
export const ACTORS: readonly Actor[] = [...ROLES, "operator", "outsider", "foreign_owner", "thing", "anonymous"];

export const PASSWORD = "correct-horse-battery";

export interface OrgRecords {
  organization: RecordModel;
  [collection: string]: RecordModel;
}

export interface World {
  su: PocketBase;
  a: OrgRecords;
  b: OrgRecords;
  users: Record<Exclude<Actor, "thing" | "anonymous">, RecordModel>;
  thingPassword: string;
  client(actor: Actor): Promise<PocketBase>;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

export async function createUser(su: PocketBase, email: string, extra: Record<string, unknown> = {}): Promise<RecordModel> {
  return su.collection("users").create({ email, password: PASSWORD, passwordConfirm: PASSWORD, verified: true, ...extra });
}

/** A user with a membership of `role` in `organization`, active there. */
export async function createMember(su: PocketBase, organization: string, role: Role, email = `${unique(role)}@example.test`): Promise<RecordModel> {
  const user = await createUser(su, email);
  await su.collection("memberships").create({ user: user.id, organization, role });
  return su.collection("users").update(user.id, { current_organization: organization });
}

/** A member of the world's first organization whose membership links its own bus identity (the browser dials with it). */
export async function createMemberWithBusIdentity(w: World): Promise<{ email: string; busUser: string }> {
  const user = await createMember(w.su, w.a.organization.id, "member");
  const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("browser"), role: w.a.bus_roles.id, active: true });
  const membership = await w.su.collection("memberships").getFirstListItem(`user = "${user.id}"`);
  await w.su.collection("memberships").update(membership.id, { bus_user: identity.id });
  return { email: user.email as string, busUser: identity.id };
}

export async function createOrganization(su: PocketBase, name: string): Promise<RecordModel> {
  return su.collection("organizations").create({ name, code: unique(name.toLowerCase()).toLowerCase(), active: true });
}

/** One record of every org-scoped collection. */
export async function seedOrganization(su: PocketBase, organization: RecordModel): Promise<OrgRecords> {
  const org = organization.id;
  const c = (name: string, data: Record<string, unknown>) => su.collection(name).create({ organization: org, ...data });
  const thing_types = await c("thing_types", { name: "Sensor", prefix: "SENS" });
  const location_types = await c("location_types", { name: "Building" });
  const locations = await c("locations", { name: "HQ", type: location_types.id });
  const thing_type_operations = await c("thing_type_operations", { name: "reboot", thing_type: thing_types.id });
  const bus_roles = await c("bus_roles", { name: "device" });
  const bus_users = await c("bus_users", { name: "device-user", role: bus_roles.id, active: true });
  // Provisioned with the organization by the bus service.
  const bus_accounts = await su.collection("bus_accounts").getFirstListItem(`organization = "${org}"`);
  const bus_account_exports = await c("bus_account_exports", { name: "telemetry", subject: "telemetry.>", kind: "stream" });
  // Provisioned with the organization by the overlay (overlay/ca.ts).
  const overlay_ca = await su.collection("overlay_ca").getFirstListItem(`organization = "${org}"`);
  const overlay_networks = await c("overlay_networks", { name: "net", cidr: "10.42.0.0/16" });
  const overlay_hosts = await c("overlay_hosts", { name: "host", network: overlay_networks.id, overlay_ip: "10.42.0.10", active: true });
  const things = await c("things", {
    name: "Thermostat",
    type: thing_types.id,
    location: locations.id,
    active: true,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    bus_user: bus_users.id,
    overlay_host: overlay_hosts.id,
  });
  const invites = await c("invites", { email: `${unique("invitee")}@example.test`, role: "member" });
  const activity = await c("activity", { actor: "seed", action: "create", record: "things", resource_id: things.id, label: "Thermostat" });
  return {
    organization,
    thing_types,
    location_types,
    locations,
    thing_type_operations,
    bus_roles,
    bus_users,
    bus_accounts,
    bus_account_exports,
    overlay_ca,
    overlay_networks,
    overlay_hosts,
    things,
    invites,
    activity,
  };
}

export async function buildWorld(platform: Platform): Promise<World> {
  const su = await platform.superuser();
  const a = await seedOrganization(su, await createOrganization(su, "Alpha"));
  const b = await seedOrganization(su, await createOrganization(su, "Beta"));
  // Each imports the other's export: an import names the exporting account.
  for (const [importer, exporter] of [[a, b], [b, a]]) {
    importer.bus_account_imports = await su.collection("bus_account_imports").create({
      organization: importer.organization.id, name: "telemetry", subject: "telemetry.>", kind: "stream",
      account_pub: exporter.bus_accounts.public_key, local_subject: `partner.${exporter.organization.code}.>`,
    });
  }
  const users = {} as World["users"];
  for (const role of ROLES) users[role] = await createMember(su, a.organization.id, role);
  users.foreign_owner = await createMember(su, b.organization.id, "owner");
  users.operator = await createUser(su, `${unique("operator")}@example.test`, { is_operator: true });
  users.outsider = await createUser(su, `${unique("outsider")}@example.test`);
  const sessions = new Map<Actor, PocketBase>();
  const world: World = {
    su,
    a,
    b,
    users,
    thingPassword: PASSWORD,
    async client(actor) {
      const cached = sessions.get(actor);
      if (cached) return cached;
      const pb = client(platform.url);
      if (actor === "thing") await pb.collection("things").authWithPassword(a.things.email as string, PASSWORD);
      else if (actor !== "anonymous") await pb.collection("users").authWithPassword(users[actor].email as string, PASSWORD);
      sessions.set(actor, pb);
      return pb;
    },
  };
  return world;
}

/**
 * A platform with a built world for one test file: started before its tests, stopped after. The
 * returned objects are filled in by beforeAll, so tests may hold them from the start.
 */
export function useWorld(options?: PlatformOptions): { platform: Platform; world: World } {
  const platform = {} as Platform;
  const world = {} as World;
  beforeAll(async () => {
    Object.assign(platform, await startPlatform(options));
    Object.assign(world, await buildWorld(platform));
  }, 120_000);
  afterAll(async () => platform.stop?.());
  return { platform, world };
}

/** The HTTP status of an SDK call: 200 when it succeeds, the error's status otherwise. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (err) {
    if (err instanceof ClientResponseError) return err.status;
    throw err;
  }
}
