// Writes the server owns (found by a black-box audit, 2026-11-25): credential and certificate fields are
// set by the server only, a Thing keeps a code and its own organization's address, and bus permissions
// must have a shape the credential can carry; each refusal is a 400 that writes nothing.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { useWorld, unique } from "./harness/world";

const { platform, world: w } = useWorld();

/** A raw write as `pb`, for its status and message. */
async function send(pb: PocketBase, method: "POST" | "PATCH", path: string, body: unknown): Promise<{ status: number; message: string }> {
  const response = await fetch(`${platform.url}/api/collections/${path}`, {
    method,
    headers: { Authorization: pb.authStore.token, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, message: ((await response.json()) as { message: string }).message };
}

const patch = (pb: PocketBase, collection: string, id: string, body: unknown) => send(pb, "PATCH", `${collection}/records/${id}`, body);
const create = (pb: PocketBase, collection: string, body: unknown) => send(pb, "POST", `${collection}/records`, body);

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
    expect(claims.nats.pub).toEqual({ allow: ["telemetry.>"], deny: ["telemetry.secret"] });
    expect(claims.nats.sub).toEqual({ allow: ["cmd.>"] });
  });
});
