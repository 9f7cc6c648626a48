// The console's live view across bus credential renewals (issue 36 item 1), in chromium against a real
// platform minting credentials of 10 s: the browser reads its renewed credential and reconnects onto it
// before the old one expires, so over three lifetimes it is never offline, the hub sees it on a renewed
// credential, and a heartbeat published at the end still shows on the Live screen.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_DIR, launchBrowser, openScreen } from "../harness/browser";
import { connectWithCreds, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { buildWorld, createMemberWithBusIdentity, PASSWORD, unique, type World } from "../harness/world";

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

const LIFETIME_S = 10;

let bus: PlatformWithBus;
let w: World;
let browser: Browser;
let member: { email: string; busUser: string };

beforeAll(async () => {
  bus = await startPlatformWithBus({ advertiseWebsocket: true, env: { PB_PUBLIC_DIR: CONSOLE_DIR, PLATFORM_BUS_USER_CREDENTIAL_LIFETIME: `${LIFETIME_S}s` } });
  w = await buildWorld(bus.platform);
  browser = await launchBrowser();
  member = await createMemberWithBusIdentity(w);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await bus?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const busState = (page: Page) => page.getByTestId("bus-state").getAttribute("data-state");

/** The issue seconds of the JWTs the hub's websocket connections of the member's bus user were opened with. */
async function browserCredentials(): Promise<number[]> {
  const key = (await w.su.collection("bus_users").getOne(member.busUser)).public_key as string;
  const connz = (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/connz?auth=true&limit=10000`)).json()) as { connections: { type?: string; authorized_user?: string; jwt?: string }[] };
  return connz.connections
    .filter((c) => c.type === "websocket" && c.authorized_user === key)
    .map((c) => (JSON.parse(Buffer.from((c.jwt ?? "..").split(".")[1], "base64url").toString() || "{}") as { iat?: number }).iat ?? 0);
}

describe("the live view across credential renewals", () => {
  it("stays connected on renewed credentials and keeps showing heartbeats", async () => {
    const { page } = await openScreen(await browser.newContext({ baseURL: bus.platform.url }), member.email, PASSWORD, "Live");
    await page.locator('[data-testid="bus-state"][data-state="connected"]').waitFor({ timeout: 20_000 });
    const [first] = await browserCredentials();
    const states = new Map<string, number>();
    const until = Date.now() + 3 * LIFETIME_S * 1000;
    while (Date.now() < until) {
      const state = (await busState(page)) ?? "none";
      states.set(state, (states.get(state) ?? 0) + 1);
      await sleep(200);
    }
    console.log(`console bus states over ${3 * LIFETIME_S} s of ${LIFETIME_S} s credentials: ${JSON.stringify(Object.fromEntries(states))}`);
    // Never dropped by the hub: a renewal's reconnect may show for an instant, an expiry never.
    expect(states.get("offline") ?? 0).toBe(0);
    expect((states.get("connected") ?? 0) / [...states.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0.9);
    const now = await browserCredentials();
    expect(now).toHaveLength(1);
    expect(now[0]).toBeGreaterThan(first + LIFETIME_S);

    // A heartbeat published now reaches the screen over the renewed connection.
    const thing = await w.su.collection("things").getOne(w.a.things.id);
    const device = await connectWithCreds(bus.busUrl, (await w.su.collection("bus_users").getOne(w.a.bus_users.id)).creds_file as string);
    try {
      const marker = unique("renewed");
      device.publish(`agents.${thing.code as string}.heartbeat`, JSON.stringify({ version: "test", uptime: "1s", time: new Date().toISOString(), state: "ok", marker }));
      await page.getByTestId("live-messages").getByText(marker).first().waitFor({ timeout: 10_000 });
    } finally {
      await device.close();
    }
  }, 90_000);
});
