// Creates racing a delete of what they name (found by a black-box audit, 2026-11-25): PocketBase checks a
// relation's record before the write's transaction, so a delete committed in between left rows of a
// deleted organization (a Thing that still signed in) and rows naming a deleted type, location or role
// (which then refused their own deactivation). The relations are checked again inside the transaction
// (lib/relations.ts): whatever the interleaving, no row names a record that is gone.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { sqlite } from "../harness/sqlite";
import { PASSWORD, client, createMember, createOrganization, useWorld, unique } from "../harness/world";

const { platform, world: w } = useWorld();

const ROUNDS = 6;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw request as `pb` (or a SuperUser's token), for its status only: refusals are expected. */
async function status(token: string, method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { Authorization: token, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function signedInOwner(organization: string): Promise<PocketBase> {
  const owner = client(platform.url);
  await owner.collection("users").authWithPassword((await createMember(w.su, organization, "owner")).email as string, PASSWORD);
  return owner;
}

/** `write(i)` for i in 0..count-1, the i-th started i × spacing ms from now. */
function staggered(count: number, spacing: number, write: (i: number) => Promise<number>): Promise<number>[] {
  return Array.from({ length: count }, (_, i) => pause(i * spacing).then(() => write(i)));
}

const rows = (query: string): number => Number(sqlite(platform.dataDir, query));

describe("creates racing a delete", () => {
  it("an organization's delete leaves none of the rows created meanwhile", async () => {
    const operator = (await w.client("operator")).authStore.token;
    const su = w.su.authStore.token;
    const tables = ["things", "locations", "thing_types", "thing_type_operations", "invites", "bus_roles", "overlay_networks", "memberships", "activity"];
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const org = await createOrganization(w.su, "Doomed");
      const owner = (await signedInOwner(org.id)).authStore.token;
      const type = await w.su.collection("thing_types").create({ organization: org.id, name: "T", prefix: "T" });
      const spare = await w.su.collection("users").create({ email: `${unique("spare")}@example.test`, password: PASSWORD, passwordConfirm: PASSWORD });
      const post = (token: string, collection: string, body: (i: number) => Record<string, unknown>) =>
        staggered(3, 12, (i) => status(token, "POST", `/api/collections/${collection}/records`, { organization: org.id, ...body(i) }));
      const writes = [
        ...post(owner, "things", (i) => ({ name: `t${i}`, password: PASSWORD, passwordConfirm: PASSWORD })),
        ...post(owner, "locations", (i) => ({ name: `l${i}` })),
        ...post(owner, "thing_types", (i) => ({ name: `tt${i}`, prefix: "P" })),
        ...post(owner, "thing_type_operations", (i) => ({ name: `op${i}`, thing_type: type.id })),
        ...post(owner, "invites", () => ({ email: `${unique("inv")}@example.test`, role: "member" })),
        ...post(owner, "bus_roles", (i) => ({ name: `r${i}` })),
        ...post(owner, "overlay_networks", (i) => ({ name: `n${i}`, cidr: `10.${100 + i}.0.0/16` })),
        ...post(su, "memberships", () => ({ user: spare.id, role: "member" })),
        pause(15).then(() => status(operator, "DELETE", `/api/collections/organizations/records/${org.id}`)),
      ];
      statuses.push(...(await Promise.all(writes)));
      const left = tables.map((table) => [table, rows(`SELECT count(*) FROM ${table} WHERE organization = '${org.id}';`)]);
      expect(left.filter(([, count]) => count !== 0), `round ${round}`).toEqual([]);
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toContain(204);
  });

  it("a type, location or role deleted meanwhile is named by no new row, and every Thing can still be deactivated", async () => {
    const org = await createOrganization(w.su, "Churn");
    const owner = (await signedInOwner(org.id)).authStore.token;
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const type = await w.su.collection("thing_types").create({ organization: org.id, name: unique("type"), prefix: "C" });
      const location = await w.su.collection("locations").create({ organization: org.id, name: unique("place") });
      const role = await w.su.collection("bus_roles").create({ organization: org.id, name: unique("role") });
      const post = (collection: string, body: (i: number) => Record<string, unknown>) =>
        staggered(4, 10, (i) => status(owner, "POST", `/api/collections/${collection}/records`, { organization: org.id, ...body(i) }));
      const remove = (collection: string, id: string) => pause(20).then(() => status(owner, "DELETE", `/api/collections/${collection}/records/${id}`));
      statuses.push(...(await Promise.all([
        ...post("things", (i) => ({ name: unique(`t${i}`), type: type.id, location: location.id, active: true, password: PASSWORD, passwordConfirm: PASSWORD })),
        ...post("thing_type_operations", (i) => ({ name: `op${i}`, thing_type: type.id })),
        ...post("bus_users", (i) => ({ name: unique(`u${i}`), role: role.id, active: true })),
        remove("thing_types", type.id),
        remove("locations", location.id),
        remove("bus_roles", role.id),
      ])));
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const dangling = (table: string, field: string, target: string) =>
      rows(`SELECT count(*) FROM ${table} WHERE organization = '${org.id}' AND ${field} != '' AND ${field} NOT IN (SELECT id FROM ${target});`);
    expect({
      thingTypes: dangling("things", "type", "thing_types"),
      thingLocations: dangling("things", "location", "locations"),
      operations: dangling("thing_type_operations", "thing_type", "thing_types"),
      busUserRoles: dangling("bus_users", "role", "bus_roles"),
    }).toEqual({ thingTypes: 0, thingLocations: 0, operations: 0, busUserRoles: 0 });
    const things = await w.su.collection("things").getFullList({ filter: `organization = "${org.id}"` });
    const deactivations = await Promise.all(things.map((t) => status(owner, "PATCH", `/api/collections/things/records/${t.id}`, { active: false })));
    expect(deactivations.filter((s) => s !== 200)).toEqual([]);
  });
});
