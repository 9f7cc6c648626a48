// The schema as PocketBase holds it: collections and fields of spec section 2, Things as an auth
// collection, hidden secret columns, and configurable collection names.
import { beforeAll, describe, expect, it } from "vitest";
import { startPlatform } from "../harness/platform";
import { useWorld, client, createUser, PASSWORD } from "../harness/world";

const { world: w } = useWorld();

const SECTION_2 = [
  "organizations", "users", "memberships", "invites", "things", "locations", "thing_types", "location_types",
  "thing_type_operations", "bus_accounts", "bus_users", "bus_roles", "bus_account_exports", "bus_account_imports",
  "bus_system_operator", "overlay_ca", "overlay_networks", "overlay_hosts", "audit_logs", "activity", "_superusers",
];

describe("collections", () => {
  it("exist with the fields the contract names", async () => {
    const collections = await w.su.collections.getFullList();
    const byName = new Map(collections.map((c) => [c.name, c]));
    for (const name of SECTION_2) expect(byName.has(name), name).toBe(true);
    const fields = (name: string) => byName.get(name)!.fields.map((f: { name: string }) => f.name);
    expect(fields("users")).toEqual(expect.arrayContaining(["is_operator", "current_organization"]));
    expect(fields("memberships")).toEqual(expect.arrayContaining(["user", "organization", "role", "bus_user"]));
    expect(fields("invites")).toEqual(expect.arrayContaining(["role", "token", "email", "expiry"]));
    expect(fields("organizations")).toEqual(expect.arrayContaining(["code", "name", "active", "managed", "is_operator_org", "is_system_org"]));
    expect(fields("things")).toEqual(expect.arrayContaining([
      "name", "code", "description", "type", "location", "metadata", "organization", "active", "bus_user", "overlay_host", "email", "password",
    ]));
    expect(fields("thing_types")).toContain("prefix");
    expect(fields("bus_users")).toEqual(expect.arrayContaining(["creds_file", "active", "regenerate", "publish_permissions"]));
    expect(fields("bus_roles")).toContain("is_default");
    expect(fields("overlay_hosts")).toEqual(expect.arrayContaining(["config_yaml", "active", "network", "overlay_ip"]));
    expect(fields("audit_logs")).toContain("changed_fields");
    expect(fields("activity")).toEqual(expect.arrayContaining(["actor", "action", "record", "timestamp", "resource_id", "label"]));
    const roles = byName.get("memberships")!.fields.find((f: { name: string }) => f.name === "role");
    expect(roles?.values).toEqual(["owner", "admin", "member", "viewer", "dashboard"]);
    const offered = byName.get("invites")!.fields.find((f: { name: string }) => f.name === "role");
    expect(offered?.values).not.toContain("owner");
  });

  it("makes things an auth collection: auth rule active = true, 7-day tokens", async () => {
    const things = await w.su.collections.getOne("things");
    expect(things.type).toBe("auth");
    expect(things.authRule).toBe("active = true");
    expect(things.authToken.duration).toBe(7 * 24 * 3600);
  });

  it("keeps things.code unique per organization in any letter case, also through the stock API", async () => {
    const owner = await w.client("owner");
    const body = { organization: w.a.organization.id, name: "Dup", active: true, password: PASSWORD, passwordConfirm: PASSWORD };
    await expect(owner.collection("things").create({ ...body, code: (w.a.things.code as string).toLowerCase() })).rejects.toMatchObject({ status: 400 });
    const foreign = await w.client("foreign_owner");
    const elsewhere = await foreign.collection("things").create({ ...body, organization: w.b.organization.id, code: w.a.things.code });
    expect(elsewhere.code).toBe(w.a.things.code);
  });
});

describe("secret columns", () => {
  const secrets = {
    bus_accounts: { seed: "SAACCOUNTSEEDSECRET", signing_seeds: ["SASIGNINGSEEDSECRET"] },
    overlay_ca: { private_key: "CA-PRIVATE-KEY-SECRET" },
    bus_users: { seed: "SUUSERSEEDSECRET", creds_file: "-----BEGIN NATS USER JWT----- creds" },
    overlay_hosts: { private_key: "HOST-PRIVATE-KEY-SECRET", config_yaml: "pki:\n  key: inline" },
  } as const;

  beforeAll(async () => {
    for (const [collection, values] of Object.entries(secrets)) await w.su.collection(collection).update(w.a[collection].id, values);
  });

  it.each(["owner", "admin", "member", "viewer", "dashboard", "operator"] as const)(
    "are hidden from %s reading the bus account and overlay CA", async (actor) => {
      const pb = await w.client(actor);
      const account = await pb.collection("bus_accounts").getOne(w.a.bus_accounts.id);
      expect(account.seed).toBeUndefined();
      expect(account.signing_seeds).toBeUndefined();
      const ca = await pb.collection("overlay_ca").getOne(w.a.overlay_ca.id);
      expect(ca.private_key).toBeUndefined();
      expect(JSON.stringify([account, ca])).not.toMatch(/SECRET/);
    });

  it("creds_file and config_yaml reach owners and admins, seeds and private keys do not", async () => {
    const owner = await w.client("owner");
    const user = await owner.collection("bus_users").getOne(w.a.bus_users.id);
    expect(user.creds_file).toBe(secrets.bus_users.creds_file);
    expect(user.seed).toBeUndefined();
    const host = await owner.collection("overlay_hosts").getOne(w.a.overlay_hosts.id);
    // Every write regenerates config_yaml (docs/overlay.md "Hosts and configs"): it embeds the host key inline.
    const stored = await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id);
    expect(host.config_yaml).toBe(stored.config_yaml);
    expect(host.config_yaml).toContain("key:");
    expect(host.private_key).toBeUndefined();
  });

  it("cannot be probed through a filter by anyone but a SuperUser", async () => {
    const owner = await w.client("owner");
    const probe = await owner.collection("bus_accounts").getList(1, 10, { filter: `seed ~ "SAACCOUNT"` }).catch((e) => e);
    expect(probe.items ?? []).toEqual([]);
    const su = await w.su.collection("bus_accounts").getList(1, 10, { filter: `seed ~ "SAACCOUNT"` });
    expect(su.items.map((r) => r.id)).toEqual([w.a.bus_accounts.id]);
  });
});

describe("configurable collection names", () => {
  it("honours the tenancy, bus, overlay and audit names", async () => {
    const renamed = {
      PLATFORM_TENANCY_ORGANIZATIONS_COLLECTION: "tenants",
      PLATFORM_TENANCY_MEMBERSHIPS_COLLECTION: "tenant_members",
      PLATFORM_TENANCY_INVITES_COLLECTION: "tenant_invites",
      PLATFORM_BUS_ACCOUNT_COLLECTION_NAME: "nats_accounts",
      PLATFORM_BUS_USER_COLLECTION_NAME: "nats_users",
      PLATFORM_BUS_ROLE_COLLECTION_NAME: "nats_roles",
      PLATFORM_BUS_EXPORT_COLLECTION_NAME: "nats_exports",
      PLATFORM_BUS_IMPORT_COLLECTION_NAME: "nats_imports",
      PLATFORM_OVERLAY_CA_COLLECTION_NAME: "nebula_ca",
      PLATFORM_OVERLAY_NETWORK_COLLECTION_NAME: "nebula_networks",
      PLATFORM_OVERLAY_HOST_COLLECTION_NAME: "nebula_hosts",
      PLATFORM_AUDIT_COLLECTION_NAME: "audit_trail",
    };
    const other = await startPlatform({ env: renamed });
    try {
      const su = await other.superuser();
      const names = (await su.collections.getFullList()).map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(Object.values(renamed)));
      expect(names).not.toContain("organizations");
      const org = await su.collection("tenants").create({ name: "Renamed", code: "renamed", active: true });
      const member = await createUser(su, "renamed-viewer@example.test");
      await su.collection("tenant_members").create({ user: member.id, organization: org.id, role: "viewer" });
      await su.collection("users").update(member.id, { current_organization: org.id });
      await su.collection("nats_users").create({ organization: org.id, name: "u" });
      const pb = client(other.url);
      await pb.collection("users").authWithPassword(member.email as string, PASSWORD);
      expect((await pb.collection("tenants").getFullList()).map((r) => r.id)).toEqual([org.id]);
      expect(await pb.collection("nats_users").getFullList()).toEqual([]);
      expect((await su.collection("audit_trail").getList(1, 1)).totalItems).toBeGreaterThan(0);
    } finally {
      await other.stop();
    }
  });
});
