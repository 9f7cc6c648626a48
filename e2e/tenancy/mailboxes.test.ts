// One mailbox, one user (docs/decisions/040-email-one-mailbox-one-user.md): users.email is unique up to ASCII
// letter case for every writer (sign-up, SuperUser create and update, the e-mail change flow) and under
// concurrent sign-ups; other characters compare byte-exact. Migration 1764000001 refuses a database that
// already holds case duplicates, naming them, and changes nothing.
import { createHmac } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, usePlatform, type Platform } from "../harness/platform";
import { REPO_ROOT } from "../harness/process";
import { client, createUser, PASSWORD, unique } from "../harness/world";
import { sqlite } from "../harness/sqlite";

const KELVIN_SIGN = "\u212A";

interface Answer {
  status: number;
  body: { status?: number; message?: string; data?: Record<string, { code: string; message: string }> };
}

/** Raw requests, so that statuses and bodies are asserted exactly. */
async function send(platform: Platform, method: string, path: string, body: unknown, token = ""): Promise<Answer> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = token;
  const response = await fetch(`${platform.url}${path}`, { method, headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer["body"]) : {} };
}

const signUp = (platform: Platform, email: string) =>
  send(platform, "POST", "/api/collections/users/records", { email, password: PASSWORD, passwordConfirm: PASSWORD });

const sql = (platform: Platform, statement: string) => sqlite(platform.dataDir, statement);

const usersWith = (platform: Platform, email: string) => Number(sql(platform, `SELECT COUNT(*) FROM users WHERE email = '${email}' COLLATE NOCASE`));

function expectNotUnique(answer: Answer, field = "email"): void {
  expect(answer.status).toBe(400);
  expect(Object.keys(answer.body.data ?? {})).toEqual([field]);
}

describe("users.email is unique up to ASCII letter case", () => {
  const platform = usePlatform();
  let su: PocketBase;
  beforeAll(async () => {
    su = await platform.superuser();
  });

  it("refuses a sign-up that differs from an existing address only in letter case, with a 400 on email", async () => {
    const local = unique("bob");
    await createUser(su, `${local}@example.test`);
    for (const variant of [`${local.toUpperCase()}@EXAMPLE.TEST`, `${local[0].toUpperCase()}${local.slice(1)}@Example.test`]) {
      const answer = await signUp(platform, variant);
      expectNotUnique(answer);
      expect(answer.body.data?.email.code).toBe("validation_not_unique");
    }
    expect(usersWith(platform, `${local}@example.test`)).toBe(1);
  });

  it("lets a look-alike that is another mailbox sign up (KELVIN SIGN is not K)", async () => {
    const rest = unique("ate");
    await createUser(su, `k${rest}@example.test`);
    const answer = await signUp(platform, `${KELVIN_SIGN}${rest}@example.test`);
    expect(answer.status).toBe(200);
  });

  it("refuses a SuperUser's create and e-mail change to a case variant; the owner's own case change is fine", async () => {
    const taken = `${unique("carol")}@example.test`;
    await createUser(su, taken);
    const create = await send(platform, "POST", "/api/collections/users/records", { email: taken.toUpperCase(), password: PASSWORD, passwordConfirm: PASSWORD }, su.authStore.token);
    expectNotUnique(create);

    const other = await createUser(su, `${unique("dave")}@example.test`);
    const change = await send(platform, "PATCH", `/api/collections/users/records/${other.id}`, { email: taken.toUpperCase() }, su.authStore.token);
    expectNotUnique(change);
    expect((await su.collection("users").getOne(other.id)).email).toBe(other.email);
    expect(usersWith(platform, taken)).toBe(1);

    const recased = await send(platform, "PATCH", `/api/collections/users/records/${other.id}`, { email: (other.email as string).toUpperCase() }, su.authStore.token);
    expect(recased.status).toBe(200);
  });

  it("refuses an e-mail change request to a case variant of another user's address", async () => {
    const taken = `${unique("erin")}@example.test`;
    await createUser(su, taken);
    const email = `${unique("frank")}@example.test`;
    await createUser(su, email);
    const pb = client(platform.url);
    await pb.collection("users").authWithPassword(email, PASSWORD);
    const answer = await send(platform, "POST", "/api/collections/users/request-email-change", { newEmail: taken.toUpperCase() }, pb.authStore.token);
    expectNotUnique(answer, "newEmail");
    expect(answer.body.data?.newEmail.code).toBe("validation_invalid_new_email");
  });

  it("refuses to confirm an e-mail change to a case variant that another user took meanwhile", async () => {
    const email = `${unique("grace")}@example.test`;
    const user = await createUser(su, email);
    const wanted = `${unique("heidi")}@example.test`;
    // The token the change request would have mailed, signed as PocketBase signs it.
    const token = emailChangeToken(platform, user.id, email, wanted.toUpperCase());
    await createUser(su, wanted);
    const answer = await send(platform, "POST", "/api/collections/users/confirm-email-change", { token, password: PASSWORD });
    expect(answer.status).toBe(400);
    expect((await su.collection("users").getOne(user.id)).email).toBe(email);
    expect(usersWith(platform, wanted)).toBe(1);

    // The same kind of token to a free address is accepted: the refusal above is not a bad token.
    const other = await createUser(su, `${unique("leo")}@example.test`);
    const free = `${unique("mia")}@example.test`;
    const control = await send(platform, "POST", "/api/collections/users/confirm-email-change", { token: emailChangeToken(platform, other.id, other.email as string, free), password: PASSWORD });
    expect(control.status).toBe(204);
    expect((await su.collection("users").getOne(other.id)).email).toBe(free);
  });

  it("admits exactly one of concurrent sign-ups of case variants; the others get the 400, none a 5xx", async () => {
    const local = unique("ivan");
    const variants = [`${local}@example.test`, `${local.toUpperCase()}@example.test`, `${local}@EXAMPLE.test`, `I${local.slice(1)}@example.test`, `${local}@Example.Test`, `${local.toUpperCase()}@EXAMPLE.TEST`];
    const answers = await Promise.all(variants.map((email) => signUp(platform, email)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const answer of answers) if (answer.status === 400) expectNotUnique(answer);
    expect(usersWith(platform, `${local}@example.test`)).toBe(1);
  });
});

/** An emailChange token for `userId`, as PocketBase's NewEmailChangeToken makes it (HS256). */
function emailChangeToken(platform: Platform, userId: string, email: string, newEmail: string): string {
  const tokenKey = sql(platform, `SELECT tokenKey FROM users WHERE id = '${userId}'`);
  const collection = sql(platform, "SELECT id || ' ' || json_extract(options, '$.emailChangeToken.secret') FROM _collections WHERE name = 'users'");
  const [collectionId, secret] = collection.split(" ");
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { type: "emailChange", id: userId, collectionId, email, newEmail, exp: Math.floor(Date.now() / 1000) + 600 };
  const unsigned = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(claims)}`;
  return `${unsigned}.${createHmac("sha256", tokenKey + secret).update(unsigned).digest("base64url")}`;
}

describe("migration 1764000001 on a database holding case duplicates", () => {
  const scratch = mkdtempSync(join(tmpdir(), "platform-mailboxes-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  // The database as the release before this migration left it: only the first platform migration.
  const before = join(scratch, "migrations-before");
  mkdirSync(before);
  cpSync(join(REPO_ROOT, "pb_migrations/1763700000_platform_schema.js"), join(before, "1763700000_platform_schema.js"));
  const platform = usePlatform(() => ({ env: { PB_MIGRATIONS_DIR: before } }));

  it("is refused naming every duplicate address, changes nothing, and applies once they are resolved", async () => {
    const su = await platform.superuser();
    const local = unique("judy");
    const judy = await createUser(su, `${local}@example.test`);
    const upper = await createUser(su, `${local.toUpperCase()}@example.test`);
    await createUser(su, `${KELVIN_SIGN}${local.slice(1)}@example.test`); // another mailbox: no duplicate
    const indexes = () => sql(platform, "SELECT group_concat(sql, char(10)) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users'");
    const untouched = indexes();

    const migrate = () => launch(["migrate", "up"], { ...process.env, PB_DATA_DIR: platform.dataDir }, scratch);
    const refused = await migrate();
    expect(refused.code).not.toBe(0);
    const output = refused.stdout + refused.stderr;
    expect(output).toContain("users.email must be unique up to letter case");
    expect(output).toContain(`"${local.toUpperCase()}@example.test", "${local}@example.test"`);
    expect(output).not.toContain(`${KELVIN_SIGN}${local.slice(1)}`);
    expect(indexes()).toBe(untouched);
    expect(sql(platform, "SELECT COUNT(*) FROM _migrations WHERE file = '1764000001_users_email_nocase.js'")).toBe("0");
    expect((await su.collection("users").getOne(judy.id)).email).toBe(judy.email);

    await su.collection("users").delete(upper.id);
    const applied = await migrate();
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(indexes()).toContain("(`email` COLLATE NOCASE)");
  });
});
