// audit_logs against the real binary: one entry per create, update, delete and sign-in, for every
// writer, with changed_fields; values only on the allowlist and never a credential; readable by Platform
// Operators only and written by nobody through the API; entries share their write's transaction; and
// retention prunes by age and by count.
import PocketBase, { type RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, startPlatform, type Platform } from "../harness/platform";
import { ACTORS, buildWorld, client, createOrganization, createUser, PASSWORD, unique, type World, statusOf } from "../harness/world";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** Every audit entry, oldest first, read by a SuperUser. */
async function auditEntries(su: PocketBase, filter = ""): Promise<RecordModel[]> {
  return su.collection("audit_logs").getFullList({ filter, sort: "created,id" });
}

async function entriesFor(su: PocketBase, recordId: string, action?: string): Promise<RecordModel[]> {
  const filter = action ? su.filter("record_id = {:id} && action = {:action}", { id: recordId, action }) : su.filter("record_id = {:id}", { id: recordId });
  return auditEntries(su, filter);
}

async function onlyEntry(su: PocketBase, recordId: string, action: string): Promise<RecordModel> {
  const found = await entriesFor(su, recordId, action);
  expect(found, `${action} entries of ${recordId}`).toHaveLength(1);
  return found[0];
}

describe("audit log", () => {
  let platform: Platform;
  let world: World;
  let su: PocketBase;
  let superuserRef: string;

  beforeAll(async () => {
    platform = await startPlatform({ env: { PLATFORM_AUDIT_LOG_TO_CONSOLE: "true" } });
    world = await buildWorld(platform);
    su = world.su;
    superuserRef = `_superusers:${su.authStore.record?.id}`;
  });
  afterAll(async () => platform?.stop());

  it("records create, update and delete with changed_fields and, on the allowlist, values", async () => {
    const owner = await world.client("owner");
    const ownerRef = `users:${world.users.owner.id}`;
    const location = await owner.collection("locations").create({ organization: world.a.organization.id, name: "Depot", code: "D1" });
    await owner.collection("locations").update(location.id, { name: "Depot North", code: "D1" });
    await owner.collection("locations").delete(location.id);

    const created = await onlyEntry(su, location.id, "create");
    expect(created).toMatchObject({ collection: "locations", actor: ownerRef, before: null });
    expect([...created.changed_fields].sort()).toEqual(["code", "name", "organization"]);
    expect(created.after).toEqual({ name: "Depot", code: "D1", organization: world.a.organization.id });

    const updated = await onlyEntry(su, location.id, "update");
    expect(updated).toMatchObject({ actor: ownerRef, changed_fields: ["name"], before: { name: "Depot" }, after: { name: "Depot North" } });

    const deleted = await onlyEntry(su, location.id, "delete");
    expect(deleted).toMatchObject({ actor: ownerRef, after: null });
    expect([...deleted.changed_fields].sort()).toEqual(["code", "description", "floor_plan", "metadata", "name", "organization", "parent", "type"]);
    expect(deleted.before).toMatchObject({ name: "Depot North", code: "D1", organization: world.a.organization.id, type: "" });
  });

  it("records field names only for bus_users and invites", async () => {
    const owner = await world.client("owner");
    await owner.collection("bus_users").update(world.a.bus_users.id, { name: "renamed-device-user" });
    const busUser = await onlyEntry(su, world.a.bus_users.id, "update");
    expect(busUser).toMatchObject({ collection: "bus_users", changed_fields: ["name"], before: null, after: null });

    const invite = await owner.collection("invites").create({ organization: world.a.organization.id, email: `${unique("audited")}@example.test`, role: "viewer" });
    const created = await onlyEntry(su, invite.id, "create");
    expect(created.changed_fields).toEqual(expect.arrayContaining(["email", "role", "organization"]));
    expect(created.before).toBeNull();
    expect(created.after).toBeNull();
    expect(JSON.stringify(created)).not.toContain(invite.email as string);
  });

  it("records a sign-in as an auth entry of the record that signed in (or of the impersonating SuperUser), and no entry for a token refresh", async () => {
    const viewer = client(platform.url);
    await viewer.collection("users").authWithPassword(world.users.viewer.email as string, PASSWORD);
    const thing = client(platform.url);
    await thing.collection("things").authWithPassword(world.a.things.email as string, PASSWORD);

    const viewerAuths = await entriesFor(su, world.users.viewer.id, "auth");
    expect(viewerAuths.length).toBeGreaterThanOrEqual(1);
    expect(viewerAuths.at(-1)).toMatchObject({ collection: "users", actor: `users:${world.users.viewer.id}`, changed_fields: [], before: null, after: null });
    expect((await entriesFor(su, world.a.things.id, "auth")).at(-1)).toMatchObject({ collection: "things", actor: `things:${world.a.things.id}` });

    const before = (await entriesFor(su, world.users.viewer.id, "auth")).length;
    await viewer.collection("users").authRefresh();
    expect(await entriesFor(su, world.users.viewer.id, "auth")).toHaveLength(before);

    // An impersonated session is the SuperUser's doing.
    await su.collection("users").impersonate(world.users.dashboard.id, 600);
    expect((await entriesFor(su, world.users.dashboard.id, "auth")).at(-1)).toMatchObject({ collection: "users", actor: superuserRef });

    // A SuperUser's sign-in at /_/ is an auth event too.
    const superuserAuths = await auditEntries(su, su.filter("collection = '_superusers' && action = 'auth'"));
    expect(superuserAuths.length).toBeGreaterThanOrEqual(1);
  });

  it("records no entry for a refused sign-in", async () => {
    const before = (await entriesFor(su, world.users.member.id, "auth")).length;
    const attempt = client(platform.url).collection("users").authWithPassword(world.users.member.email as string, "wrong-password");
    expect(await statusOf(attempt)).toBe(400);
    expect(await entriesFor(su, world.users.member.id, "auth")).toHaveLength(before);
  });

  it("attributes SuperUser writes to the SuperUser, and writes without a request to system", async () => {
    await su.collection("things").update(world.a.things.id, { description: "checked by staff" });
    const updated = await onlyEntry(su, world.a.things.id, "update");
    expect(updated).toMatchObject({ actor: superuserRef, changed_fields: ["description"], after: { description: "checked by staff" } });

    // Deleting a membership makes a hook clear the user's active organization: a write without a request.
    const leaver = await createUser(su, `${unique("leaver")}@example.test`);
    const membership = await su.collection("memberships").create({ user: leaver.id, organization: world.b.organization.id, role: "viewer" });
    await su.collection("users").update(leaver.id, { current_organization: world.b.organization.id });
    await su.collection("memberships").delete(membership.id);
    expect(await onlyEntry(su, membership.id, "delete")).toMatchObject({ actor: superuserRef, collection: "memberships" });
    const cleared = (await entriesFor(su, leaver.id, "update")).filter((entry) => entry.actor === "system");
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).toMatchObject({ changed_fields: ["current_organization"], before: { current_organization: world.b.organization.id }, after: { current_organization: "" } });

    // The harness created the SuperUser with the `superuser upsert` command before serving.
    const upserted = await auditEntries(su, su.filter("collection = '_superusers' && action = 'create' && record_id = {:id}", { id: su.authStore.record?.id }));
    expect(upserted).toHaveLength(1);
    expect(upserted[0]).toMatchObject({ actor: "system", before: null, after: null });
  });

  it("never stores a password, token key or hidden field value, not even on the allowlist", async () => {
    const secretPassword = `pw-${unique("secret")}`;
    const user = await su.collection("users").create({ email: `${unique("secretive")}@example.test`, password: secretPassword, passwordConfirm: secretPassword });
    const newPassword = `pw-${unique("rotated")}`;
    await su.collection("users").update(user.id, { password: newPassword, passwordConfirm: newPassword, name: "Secretive" });
    // The API never shows a token key, so a SuperUser sets a known one.
    const tokenKey = `tk${Date.now()}${"0123456789".repeat(3)}`;
    await su.collection("users").update(user.id, { tokenKey });

    const seed = `SUSEED${unique("hidden").toUpperCase()}`;
    await su.collection("bus_users").update(world.a.bus_users.id, { seed });
    const signingSeed = `SASEED${unique("hidden").toUpperCase()}`;
    await su.collection("bus_accounts").update(world.a.bus_accounts.id, { signing_seeds: [signingSeed] });

    const updates = await entriesFor(su, user.id, "update");
    const updated = updates.find((entry) => entry.changed_fields.includes("password"));
    const rekeyed = updates.find((entry) => !entry.changed_fields.includes("password"));
    if (!updated || !rekeyed) throw new Error(`expected two updates, got ${JSON.stringify(updates)}`);
    expect(rekeyed.changed_fields).toEqual(["tokenKey"]);
    expect([...updated.changed_fields].sort()).toEqual(["name", "password", "tokenKey"]);
    expect(updated.before).toEqual({ name: "" });
    expect(updated.after).toEqual({ name: "Secretive" });
    expect((await onlyEntry(su, user.id, "create")).changed_fields).toEqual(expect.arrayContaining(["password", "tokenKey", "email"]));
    expect((await entriesFor(su, world.a.bus_users.id, "update")).at(-1)?.changed_fields).toEqual(["seed"]);

    const table = JSON.stringify(await auditEntries(su));
    for (const secret of [secretPassword, newPassword, tokenKey, seed, signingSeed, PASSWORD]) expect(table).not.toContain(secret);
    for (const secret of [secretPassword, newPassword, tokenKey, seed, signingSeed]) expect(platform.log()).not.toContain(secret);
  });

  it("mirrors each entry to stdout as one JSON line without values (audit.log_to_console)", async () => {
    const owner = await world.client("owner");
    const marker = unique("Mirrored");
    const location = await owner.collection("locations").create({ organization: world.a.organization.id, name: marker });
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !line; i++) {
      line = platform
        .log()
        .split("\n")
        .filter((text) => text.startsWith("{"))
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((parsed) => parsed.record_id === location.id);
      if (!line) await sleep(100);
    }
    expect(line).toMatchObject({ type: "audit", collection: "locations", action: "create", actor: `users:${world.users.owner.id}` });
    expect(Object.keys(line ?? {}).sort()).toEqual(["action", "actor", "changed_fields", "collection", "record_id", "time", "type"]);
    expect(platform.log()).not.toContain(marker);
  });

  it("records email template edits as a collection update with the template values", async () => {
    const users = await su.collections.getOne("users");
    const subject = `Verify for ${unique("template")}`;
    await su.collections.update("users", { verificationTemplate: { subject, body: users.verificationTemplate.body } });
    const entries = await auditEntries(su, su.filter("collection = '_collections' && record_id = {:id} && action = 'update'", { id: users.id }));
    const entry = entries.at(-1);
    expect(entry).toMatchObject({ actor: superuserRef, changed_fields: ["verificationTemplate"] });
    expect(entry?.before).toEqual({ verificationTemplate: users.verificationTemplate });
    expect(entry?.after).toEqual({ verificationTemplate: { subject, body: users.verificationTemplate.body } });
  });

  it("keeps no entry for a write that rolled back", async () => {
    await su.settings.update({ batch: { enabled: true, maxRequests: 10, timeout: 5 } });
    const owner = await world.client("owner");
    const name = unique("Rolled back");
    const batch = owner.createBatch();
    batch.collection("locations").create({ organization: world.a.organization.id, name });
    batch.collection("locations").create({ organization: world.a.organization.id, name: "" }); // required name: refused
    expect(await statusOf(batch.send())).toBe(400);
    expect(await owner.collection("locations").getFullList({ filter: owner.filter("name = {:name}", { name }) })).toHaveLength(0);
    expect(JSON.stringify(await auditEntries(su, "collection = 'locations'"))).not.toContain(name);

    // The same batch without the bad request commits both the row and its entry.
    const committed = owner.createBatch();
    committed.collection("locations").create({ organization: world.a.organization.id, name });
    const [result] = await committed.send();
    const id = (result.body as RecordModel).id;
    expect(await onlyEntry(su, id, "create")).toMatchObject({ actor: `users:${world.users.owner.id}`, after: { name, organization: world.a.organization.id } });
  });

  it("is readable by a Platform Operator, and by no tenant role nor anonymously", async () => {
    const operator = await world.client("operator");
    const visible = await operator.collection("audit_logs").getList(1, 5);
    expect(visible.totalItems).toBeGreaterThan(0);
    const someEntry = visible.items[0];
    expect((await operator.collection("audit_logs").getOne(someEntry.id)).id).toBe(someEntry.id);

    for (const actor of ["owner", "admin", "member", "viewer", "dashboard", "outsider", "foreign_owner", "thing", "anonymous"] as const) {
      const pb = await world.client(actor);
      expect((await pb.collection("audit_logs").getList(1, 5)).totalItems, actor).toBe(0);
      expect(await statusOf(pb.collection("audit_logs").getOne(someEntry.id)), actor).toBe(404);
    }
  });

  it("cannot be created, changed or deleted through the API by anyone but a SuperUser", async () => {
    const [entry] = (await su.collection("audit_logs").getList(1, 1, { sort: "-created" })).items;
    const forged = { collection: "things", record_id: "forged", action: "create", actor: "users:nobody", changed_fields: [] };
    for (const actor of ACTORS) {
      const pb = await world.client(actor);
      expect(await statusOf(pb.collection("audit_logs").create(forged)), `${actor} create`).toBeGreaterThanOrEqual(400);
      expect(await statusOf(pb.collection("audit_logs").update(entry.id, { actor: "users:nobody" })), `${actor} update`).toBeGreaterThanOrEqual(400);
      expect(await statusOf(pb.collection("audit_logs").delete(entry.id)), `${actor} delete`).toBeGreaterThanOrEqual(400);
    }
    expect(await su.collection("audit_logs").getOne(entry.id)).toMatchObject({ actor: entry.actor, record_id: entry.record_id });
    expect(await auditEntries(su, "record_id = 'forged'")).toHaveLength(0);
  });
});

describe("audit retention", () => {
  let platform: Platform;
  let su: PocketBase;

  beforeAll(async () => {
    // A schedule that never comes round during a test: sweeps here are run with `audit prune`.
    platform = await startPlatform({ env: { PLATFORM_AUDIT_RETENTION_INTERVAL: "0 0 1 1 *" } });
    su = await platform.superuser();
  });
  afterAll(async () => platform?.stop());

  const prune = async (...flags: string[]) => {
    const result = await platform.command(["audit", "prune", ...flags]);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  it("does nothing while retention is off", async () => {
    const before = await auditEntries(su);
    expect(await prune()).toContain("retention is off");
    expect(await auditEntries(su)).toHaveLength(before.length);
  });

  it("prunes entries older than max_age", async () => {
    await createOrganization(su, "Aged");
    const old = await auditEntries(su);
    await sleep(3_500);
    const fresh = await createOrganization(su, "Fresh");
    expect(await prune("--max-age", "3s")).toMatch(/removed \d+ entries \(\d+ by age, 0 by count\)/);
    const kept = await auditEntries(su);
    expect(kept.some((entry) => old.some((o) => o.id === entry.id))).toBe(false);
    expect(kept.map((entry) => entry.record_id)).toContain(fresh.id);
  });

  it("keeps only the newest max_records entries", async () => {
    for (let i = 0; i < 6; i++) await createOrganization(su, `Counted${i}`);
    const all = await auditEntries(su);
    expect(all.length).toBeGreaterThan(4);
    expect(await prune("--max-records", "4")).toContain(`(0 by age, ${all.length - 4} by count)`);
    expect((await auditEntries(su)).map((entry) => entry.id)).toEqual(all.slice(-4).map((entry) => entry.id));
  });

  it("takes its limits from audit.retention.* (the configuration the cron sweep uses)", async () => {
    for (let i = 0; i < 3; i++) await createOrganization(su, `Configured${i}`);
    const all = await auditEntries(su);
    const env = { ...process.env, PB_DATA_DIR: platform.dataDir, PLATFORM_AUDIT_RETENTION_MAX_RECORDS: "2" };
    const result = await launch(["audit", "prune"], env, platform.dataDir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`(0 by age, ${all.length - 2} by count)`);
    expect((await auditEntries(su)).map((entry) => entry.id)).toEqual(all.slice(-2).map((entry) => entry.id));
  });
});
