import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load";
import { parseYaml } from "../../common/config/yaml";
import { collectionNames } from "../schema/names";
import { actorOf } from "./actor-ref";
import { activityLabel, LABEL_MAX } from "./feed";
import { isAudited, isInventory, keepsValues } from "./policy";

const config = (env: Record<string, string> = {}) => loadConfig({ env, args: ["pocketbase"], cwd: "/nowhere", readFile: () => undefined, parseYaml });
const n = collectionNames(config());
const renamed = collectionNames(
  config({
    PLATFORM_AUDIT_COLLECTION_NAME: "journal",
    PLATFORM_BUS_USER_COLLECTION_NAME: "nats_users",
    PLATFORM_TENANCY_ORGANIZATIONS_COLLECTION: "tenants",
    PLATFORM_OVERLAY_NETWORK_COLLECTION_NAME: "nets",
  }),
);

describe("isAudited", () => {
  it("covers every platform collection, the feed and SuperUsers", () => {
    for (const name of ["organizations", "users", "things", "bus_users", "overlay_ca", "invites", "bus_system_operator", "activity", "_superusers"]) {
      expect(isAudited(n, name), name).toBe(true);
    }
  });

  it("leaves out the audit log itself and PocketBase's other internal collections", () => {
    for (const name of ["audit_logs", "_mfas", "_otps", "_authOrigins", "_externalAuths"]) expect(isAudited(n, name), name).toBe(false);
  });

  it("follows the configured audit collection name", () => {
    expect(isAudited(renamed, "journal")).toBe(false);
    expect(isAudited(renamed, "audit_logs")).toBe(true);
  });
});

describe("keepsValues", () => {
  it("is the spec 2.1 allowlist", () => {
    const allowed = ["organizations", "memberships", "users", "things", "locations", "thing_types", "location_types", "thing_type_operations", "bus_roles", "overlay_networks"];
    for (const name of allowed) expect(keepsValues(n, name), name).toBe(true);
  });

  it("records names only for credential-bearing and every other collection", () => {
    const namesOnly = ["bus_users", "overlay_hosts", "bus_accounts", "overlay_ca", "invites", "bus_account_exports", "bus_account_imports", "bus_system_operator", "activity", "_superusers", "custom"];
    for (const name of namesOnly) expect(keepsValues(n, name), name).toBe(false);
  });

  it("follows configured collection names", () => {
    expect(keepsValues(renamed, "tenants")).toBe(true);
    expect(keepsValues(renamed, "nets")).toBe(true);
    expect(keepsValues(renamed, "organizations")).toBe(false);
    expect(keepsValues(renamed, "nats_users")).toBe(false);
  });
});

describe("isInventory", () => {
  it("is exactly the five inventory collections", () => {
    const inventory = ["things", "locations", "thing_types", "location_types", "thing_type_operations"];
    for (const name of inventory) expect(isInventory(n, name), name).toBe(true);
    for (const name of ["bus_roles", "organizations", "memberships", "activity", "overlay_networks"]) expect(isInventory(n, name), name).toBe(false);
  });
});

describe("activityLabel", () => {
  it("is the name, else the code", () => {
    expect(activityLabel("  Thermostat ", "SENS-1")).toBe("Thermostat");
    expect(activityLabel("", "SENS-1")).toBe("SENS-1");
    expect(activityLabel("", "")).toBe("");
  });

  it(`is at most ${LABEL_MAX} characters, never a broken surrogate pair`, () => {
    const label = activityLabel(`${"a".repeat(LABEL_MAX - 1)}😀😀`, "");
    expect(Array.from(label)).toHaveLength(LABEL_MAX);
    expect(label.endsWith("😀")).toBe(true);
  });
});

describe("actorOf", () => {
  const user = { collection: "users", id: "u1", email: "a@x.test", profileName: "", emailVisible: false };

  it("names a user by profile name, by address only if the user made it visible, else by reference", () => {
    expect(actorOf({ ...user, profileName: " Ada " }, "users")).toEqual({ ref: "users:u1", name: "Ada" });
    expect(actorOf({ ...user, emailVisible: true }, "users")).toEqual({ ref: "users:u1", name: "a@x.test" });
    expect(actorOf(user, "users")).toEqual({ ref: "users:u1", name: "users:u1" });
    expect(actorOf({ ...user, collection: "members" }, "members")).toEqual({ ref: "members:u1", name: "members:u1" });
  });

  it("names a Thing by its platform address", () => {
    expect(actorOf({ ...user, collection: "things", id: "t1", email: "T-1@acme.thing.local" }, "users")).toEqual({ ref: "things:t1", name: "T-1@acme.thing.local" });
    expect(actorOf({ ...user, collection: "things", id: "t1", email: "" }, "users")).toEqual({ ref: "things:t1", name: "things:t1" });
  });

  it("keeps SuperUser addresses out of tenant-readable text", () => {
    expect(actorOf({ ...user, collection: "_superusers", id: "s1", email: "root@example.test" }, "users")).toEqual({ ref: "_superusers:s1", name: "superuser" });
  });

  it("is anonymous without an identity", () => {
    expect(actorOf(undefined, "users")).toEqual({ ref: "anonymous", name: "anonymous" });
  });
});
