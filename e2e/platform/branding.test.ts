// GET /branding/{path} (spec 4.1: open, three files, per-file fallback to embedded defaults) and
// GET /api/client-config (spec 4.2: users session, bus.websocket_urls, never bus.server_url).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "../harness/platform";
import { buildWorld, client, createUser, PASSWORD, unique, type World } from "../harness/world";

const CUSTOM_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title>custom-logo-marker</title></svg>\n`;
const SECRET = "secret-outside-the-branding-dir";

interface Raw {
  status: number;
  contentType: string;
  location: string;
  body: string;
}

/** A GET whose path goes on the wire byte for byte (fetch would normalize dot segments first). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          location: String(res.headers.location ?? ""),
          body,
        }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function clientConfig(base: string, pb?: PocketBase): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/api/client-config`, { headers: pb ? { Authorization: pb.authStore.token } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function signedInUser(platform: Platform): Promise<PocketBase> {
  const su = await platform.superuser();
  const user = await createUser(su, `${unique("cfg")}@example.test`);
  const pb = client(platform.url);
  await pb.collection("users").authWithPassword(user.email as string, PASSWORD);
  return pb;
}

describe("defaults (no configuration)", () => {
  let platform: Platform;
  let world: World;
  beforeAll(async () => {
    platform = await startPlatform();
    world = await buildWorld(platform);
  });
  afterAll(async () => platform?.stop());

  it.each([
    ["theme.css", /^text\/css/, (body: string) => expect(body).toContain("--brand-primary")],
    ["logo.svg", /^image\/svg\+xml/, (body: string) => expect(body).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)],
    [
      "branding.json",
      /^application\/json/,
      (body: string) => expect(JSON.parse(body)).toMatchObject({ logo: "/branding/logo.svg", theme: "/branding/theme.css" }),
    ],
  ])("serves %s without authentication", async (name, type, check) => {
    const answer = await rawGet(platform.url, `/branding/${name}`);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(type);
    check(answer.body);
  });

  it.each([
    "/branding/",
    "/branding/unknown.txt",
    "/branding/Theme.css",
    "/branding/theme.css/",
    "/branding/x/theme.css",
    "/branding/constructor",
    "/branding/__proto__",
    "/branding/hasOwnProperty",
    "/branding/..%2fdata.db",
    "/branding/..%2f..%2fetc%2fpasswd",
    "/branding/%2e%2e%2fdata.db",
    "/branding/%2e%2e/data.db",
    "/branding/..%5cdata.db",
    "/branding/%2fetc%2fpasswd",
    "/branding/theme.css%00",
  ])("404 for %s", async (path) => {
    const answer = await rawGet(platform.url, path);
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain("SQLite format");
    expect(answer.body).not.toContain("root:");
  });

  // Go's router answers a path with dot segments by redirecting to the cleaned path before any handler
  // runs; the cleaned path lies outside /branding/ and ends in the static handler's 404.
  it.each([
    ["/branding/../data.db", "/data.db"],
    ["/branding/x/../../etc/passwd", "/etc/passwd"],
    ["/branding/./../data.db", "/data.db"],
  ])("never serves a file from outside for %s (redirected to %s: the console's page or a 404, not the file)", async (path, cleaned) => {
    const first = await rawGet(platform.url, path);
    expect(first.status).toBe(307);
    expect(first.location).toBe(cleaned);
    const answer = await rawGet(platform.url, first.location);
    // The console is served with index fallback: an unknown path answers its page (or 404 without a console).
    if (answer.status === 200) expect(answer.body).toContain('<div id="app"');
    else expect(answer.status).toBe(404);
    expect(answer.body).not.toContain("SQLite format");
    expect(answer.body).not.toContain("root:");
  });

  it("client-config: 401 anonymous, 403 for a Thing session, 200 with an empty list for a user", async () => {
    const anonymous = await clientConfig(platform.url);
    expect(anonymous.status).toBe(401);
    const thing = await clientConfig(platform.url, await world.client("thing"));
    expect(thing.status).toBe(403);
    expect(thing.body).not.toHaveProperty("natsWebsocketUrls");
    for (const actor of ["owner", "dashboard", "outsider", "operator"] as const) {
      expect(await clientConfig(platform.url, await world.client(actor)), actor).toEqual({ status: 200, body: { natsWebsocketUrls: [] } });
    }
  });

  it("client-config refuses a forged token", async () => {
    const response = await fetch(`${platform.url}/api/client-config`, { headers: { Authorization: "not-a-token" } });
    expect(response.status).toBe(401);
  });
});

describe("configured branding directory and websocket URLs", () => {
  let platform: Platform;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "branding-e2e-"));
    const dir = join(root, "brand");
    mkdirSync(dir);
    writeFileSync(join(dir, "logo.svg"), CUSTOM_LOGO);
    writeFileSync(join(root, "secret.txt"), SECRET);
    platform = await startPlatform({
      env: {
        PLATFORM_BRANDING_DIR: dir,
        PLATFORM_BUS_WEBSOCKET_URLS: "ws://a:1 ws://b:2",
        PLATFORM_BUS_SERVER_URL: "bus://bus.internal:4222",
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("serves logo.svg from the directory and the other two from the embedded defaults", async () => {
    const logo = await rawGet(platform.url, "/branding/logo.svg");
    expect(logo).toMatchObject({ status: 200, contentType: expect.stringMatching(/^image\/svg\+xml/), body: CUSTOM_LOGO });
    const theme = await rawGet(platform.url, "/branding/theme.css");
    expect(theme.status).toBe(200);
    expect(theme.contentType).toMatch(/^text\/css/);
    expect(theme.body).toContain("--brand-primary");
    const json = await rawGet(platform.url, "/branding/branding.json");
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toMatchObject({ logo: "/branding/logo.svg" });
  });

  it.each(["/branding/..%2fsecret.txt", "/branding/secret.txt", "/branding/..%2f..%2fsecret.txt", "/branding/brand%2f..%2fsecret.txt"])(
    "never reaches a file beside the directory: %s",
    async (path) => {
      const answer = await rawGet(platform.url, path);
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain(SECRET);
    },
  );

  it("client-config lists the configured websocket URLs in order", async () => {
    expect(await clientConfig(platform.url, await signedInUser(platform))).toEqual({
      status: 200,
      body: { natsWebsocketUrls: ["ws://a:1", "ws://b:2"] },
    });
  });
});

describe("bus.server_url alone", () => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await startPlatform({ env: { PLATFORM_BUS_SERVER_URL: "bus://bus.internal:4222" } });
  });
  afterAll(async () => platform?.stop());

  it("client-config is never derived from bus.server_url", async () => {
    const answer = await clientConfig(platform.url, await signedInUser(platform));
    expect(answer).toEqual({ status: 200, body: { natsWebsocketUrls: [] } });
    expect(JSON.stringify(answer.body)).not.toContain("bus.internal");
  });
});
