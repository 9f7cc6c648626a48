// GET /api/me/leaf-config's conditional read (docs/decisions/087-polled-routes-validated-by-row-stamps.md):
// an unchanged poll answers 304 on a validator over the rows' stamps, without reading or hashing the account
// claim; every change that alters the ten fields alters the tag: the gateway's credential rotated, its
// account's claim re-signed (a new export, another user's revocation), and the hub's leaf URL and domain
// changed across a restart.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { postThing } from "../harness/agent";
import { client, useWorld } from "../harness/world";

const { platform, world: w } = useWorld({ env: { PLATFORM_BUS_LEAF_URL: "nats-leaf://127.0.0.1:7422", PLATFORM_BUS_PERSIST_DOMAIN: "hub" } });

interface Poll {
  status: number;
  etag: string;
  body: Record<string, string>;
}

async function poll(gateway: PocketBase, etag = ""): Promise<Poll> {
  const headers: Record<string, string> = { Authorization: gateway.authStore.token, ...(etag ? { "If-None-Match": etag } : {}) };
  const response = await fetch(`${platform.url}/api/me/leaf-config`, { headers });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get("etag") ?? "", body: text ? (JSON.parse(text) as Record<string, string>) : {} };
}

/** A gateway Thing of org A with a minted bus identity, signed in. */
async function gateway(): Promise<{ device: PocketBase; busUser: string }> {
  const made = await postThing(await w.client("owner"), { name: "etag-gateway", bus: { mode: "auto" } });
  const device = client(platform.url);
  const auth = await device.collection("things").authWithPassword(made.email, made.password);
  return { device, busUser: auth.record.bus_user as string };
}

/** `change` is seen by a poll holding the tag from before it: a 200, a new tag, and `field` changed. */
async function expectSeen(device: PocketBase, field: string, change: () => Promise<unknown>): Promise<void> {
  const before = await poll(device);
  expect((await poll(device, before.etag)).status).toBe(304);
  await change();
  const after = await poll(device, before.etag);
  expect(after.status).toBe(200);
  expect(after.etag).not.toBe(before.etag);
  expect(after.body[field]).not.toBe(before.body[field]);
  expect((await poll(device, after.etag)).status).toBe(304);
}

describe("GET /api/me/leaf-config with If-None-Match", () => {
  it("answers 304 with no body to the current tag, and moves it on a rotation and on each re-sign of the account's claim", async () => {
    const { device } = await gateway();
    const first = await poll(device);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toHaveLength(10);
    expect(first.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const unchanged = await poll(device, first.etag);
    expect([unchanged.status, unchanged.body, unchanged.etag]).toEqual([304, {}, first.etag]);

    await expectSeen(device, "creds", () => fetch(`${platform.url}/api/me/bus-creds/rotate`, { method: "POST", headers: { Authorization: device.authStore.token } }));
    await expectSeen(device, "account_jwt", () =>
      w.su.collection("bus_account_exports").create({ organization: w.a.organization.id, name: "etag-orders", subject: "etag.orders.>", kind: "stream" }),
    );
    // Another user of the same account revoked: the claim's revocation list is re-signed.
    const other = await gateway();
    await expectSeen(device, "account_jwt", () => w.su.collection("bus_users").update(other.busUser, { active: false }));
  });

  it("keeps another organization's gateway at 304 while this account's claim moves", async () => {
    const { device } = await gateway();
    const before = await poll(device);
    await w.su.collection("bus_account_exports").create({ organization: w.b.organization.id, name: "etag-other", subject: "etag.other.>", kind: "stream" });
    expect((await poll(device, before.etag)).status).toBe(304);
  });

  it("moves the tag when the hub's leaf URL and domain change across a restart", async () => {
    const { device } = await gateway();
    const before = await poll(device);
    expect([before.body.hub_leaf_url, before.body.hub_domain]).toEqual(["nats-leaf://127.0.0.1:7422", "hub"]);
    await platform.restart({ PLATFORM_BUS_LEAF_URL: "nats-leaf://localhost:7422", PLATFORM_BUS_PERSIST_DOMAIN: "hub2" });
    const after = await poll(device, before.etag);
    expect(after.status).toBe(200);
    expect([after.body.hub_leaf_url, after.body.hub_domain]).toEqual(["nats-leaf://localhost:7422", "hub2"]);
    expect((await poll(device, after.etag)).status).toBe(304);
  });
});
