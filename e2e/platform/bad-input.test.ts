// Hostile and malformed bodies on the added POST routes: always a 4xx with a clear JSON message, never a
// 5xx or an internal detail, and nothing written.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { useWorld } from "../harness/world";

const { platform, world } = useWorld();

const MIB = 1024 * 1024;

interface Case {
  name: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  /** The exact status when it matters; any 4xx otherwise. */
  status?: number;
}

/** Bodies every added JSON route must refuse, with `valid` a field set that would otherwise succeed. */
function hostileBodies(valid: Record<string, unknown>, field: string): Case[] {
  const json = "application/json";
  return [
    { name: "malformed JSON", body: `{"${field}": `, contentType: json, status: 400 },
    { name: "trailing garbage", body: `${JSON.stringify(valid)} x`, contentType: json, status: 400 },
    { name: "single quotes", body: `{'${field}': 'x'}`, contentType: json, status: 400 },
    { name: "a JSON array", body: JSON.stringify([valid]), contentType: json, status: 400 },
    { name: "an empty JSON array", body: "[]", contentType: json, status: 400 },
    { name: "a JSON string", body: JSON.stringify(JSON.stringify(valid)), contentType: json, status: 400 },
    { name: "a JSON number", body: "42", contentType: json, status: 400 },
    { name: "JSON null", body: "null", contentType: json, status: 400 },
    { name: "JSON true", body: "true", contentType: json, status: 400 },
    { name: "an empty body", body: "", contentType: json, status: 400 },
    { name: "whitespace only", body: " \n\t ", contentType: json, status: 400 },
    { name: "an empty body without a content type", body: "", status: 400 },
    { name: "text/plain", body: JSON.stringify(valid), contentType: "text/plain", status: 415 },
    { name: "a form body", body: new URLSearchParams(valid as Record<string, string>).toString(), contentType: "application/x-www-form-urlencoded", status: 415 },
    {
      name: "multipart form data",
      body: `--b\r\nContent-Disposition: form-data; name="${field}"\r\n\r\nx\r\n--b--\r\n`,
      contentType: "multipart/form-data; boundary=b",
      status: 415,
    },
    // Bytes, so that fetch adds no Content-Type of its own (a string body would get text/plain).
    { name: "JSON without a content type", body: new TextEncoder().encode(JSON.stringify(valid)), status: 415 },
    { name: `${field} an object`, body: JSON.stringify({ ...valid, [field]: { $gt: "" } }), contentType: json, status: 400 },
    { name: `${field} an array`, body: JSON.stringify({ ...valid, [field]: ["x"] }), contentType: json, status: 400 },
    { name: `${field} a number`, body: JSON.stringify({ ...valid, [field]: 1 }), contentType: json, status: 400 },
    { name: `${field} a boolean`, body: JSON.stringify({ ...valid, [field]: true }), contentType: json, status: 400 },
    { name: "invalid UTF-8", body: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), contentType: json, status: 400 },
    { name: "deeply nested arrays", body: `${"[".repeat(20000)}${"]".repeat(20000)}`, contentType: json, status: 400 },
    { name: "deeply nested objects", body: `${'{"a":'.repeat(8000)}1${"}".repeat(8000)}`, contentType: json, status: 400 },
    { name: "a 1 MiB body", body: JSON.stringify({ ...valid, pad: "x".repeat(MIB) }), contentType: json, status: 413 },
    // 80,000 bytes in 40,000 characters: the limit counts bytes.
    { name: "a multi-byte body over the limit", body: JSON.stringify({ ...valid, pad: "é".repeat(40000) }), contentType: json, status: 413 },
    { name: `a 1 MiB ${field}`, body: JSON.stringify({ ...valid, [field]: "x".repeat(MIB) }), contentType: json, status: 413 },
  ];
}

async function send(path: string, pb: PocketBase, c: Case) {
  const headers: Record<string, string> = { Authorization: pb.authStore.token };
  if (c.contentType) headers["Content-Type"] = c.contentType;
  const response = await fetch(`${platform.url}${path}`, { method: "POST", headers, body: c.body.length ? c.body : undefined });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text };
}

/** Row counts of every collection the routes could write. */
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const collection of ["things", "memberships", "invites", "users", "bus_users", "overlay_hosts"]) {
    out[collection] = (await world.su.collection(collection).getList(1, 1)).totalItems;
  }
  return out;
}

function expectCleanRefusal(answer: { status: number; contentType: string; text: string }, c: Case): void {
  if (c.status) expect(answer.status).toBe(c.status);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.contentType).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text) as { status: number; message: string; data: unknown };
  expect(body).toEqual({ status: answer.status, message: expect.any(String), data: {} });
  expect(body.message.length).toBeGreaterThan(5);
  expect(body.message).not.toMatch(/Something went wrong/i);
  for (const leak of [/\bat \S+\.(js|ts|go)\b/, /platform\.js/, /goja/i, /\.ts:\d+/, /\.go:\d+/, /TypeError|ReferenceError|SyntaxError/, /GoError/]) {
    expect(answer.text).not.toMatch(leak);
  }
}

describe.each([
  {
    route: "/api/org/invites/accept",
    field: "token",
    valid: () => ({ token: world.a.invites.token as string }),
    caller: () => world.client("outsider"),
  },
  {
    route: "/api/org/things",
    field: "name",
    valid: () => ({ name: "would be created" }),
    caller: () => world.client("owner"),
  },
])("POST $route", ({ route, field, valid, caller }) => {
  // Built lazily: the seeded invitation token exists only once the world is up.
  const cases = () => hostileBodies(valid(), field);

  it.each(hostileBodies({ [field]: "x" }, field).map((c, i) => [c.name, i] as const))("refuses %s cleanly and writes nothing", async (_, i) => {
    const c = cases()[i];
    const pb = await caller();
    const before = await counts();
    expectCleanRefusal(await send(route, pb, c), c);
    expect(await counts()).toEqual(before);
  });

  it("still accepts the valid body with application/json; charset=utf-8 (the cases above fail for their own reason)", async () => {
    const pb = await caller();
    const answer = await send(route, pb, { name: "valid", body: JSON.stringify(valid()), contentType: "application/json; charset=utf-8" });
    // The seeded invitation is for someone else's address: 403 proves the token was read and matched.
    expect(answer.status).toBe(route.endsWith("accept") ? 403 : 200);
  });
});
