// The live view and the visualizer over the bus, in chromium against a real platform and hub (websocket
// listener): a message published with a Thing's creds shows up on the Live screen (latency printed);
// suspending the member's bus user drops the browser's bus connection, the page says the identity is
// suspended (its own record, read after the hub's refusal), and reactivating lets it back; the
// gateway's site leaf shows attached then not attached, and its cmd.health answer renders like /ready; the
// three address sources (server list, this device's override, the built-in default) and the refusal of
// ws:// on an https page; the visualizer tab reconnects by itself through repeated hub outages (JS heap
// growth printed). No response >= 400; axe finds nothing serious or critical; screenshots.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_DIR, launchBrowser, failedResponses, seriousViolations, screenshot, signInThroughForm, screenSettled, openScreen } from "../harness/browser";
import { connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { gatewayLeafConfig, startSiteLeaf } from "../harness/leaf";
import { buildWorld, createMemberWithBusIdentity, PASSWORD, unique, type World } from "../harness/world";

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

let bus: PlatformWithBus;
let w: World;
let browser: Browser;
let device: NatsConnection;
let thingCode: string;
let member: { email: string; busUser: string };

beforeAll(async () => {
  bus = await startPlatformWithBus({ advertiseWebsocket: true, env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
  w = await buildWorld(bus.platform);
  browser = await launchBrowser();
  // The seeded Thing's own bus user publishes as its agent would.
  const thing = await w.su.collection("things").getOne(w.a.things.id);
  thingCode = thing.code as string;
  device = await connectWithCreds(bus.busUrl, (await w.su.collection("bus_users").getOne(w.a.bus_users.id)).creds_file as string);
  member = await createMemberWithBusIdentity(w);
}, 120_000);
afterAll(async () => {
  await device?.close().catch(() => undefined);
  await browser?.close();
  await bus?.stop();
});

async function signedIn(email: string, screen: string, context?: BrowserContext): Promise<{ page: Page; failures: string[] }> {
  return openScreen(context ?? (await browser.newContext({ baseURL: bus.platform.url })), email, PASSWORD, screen);
}

const busState = (page: Page) => page.getByTestId("bus-state").getAttribute("data-state");

async function waitForBusState(page: Page, state: string, ms = 20_000): Promise<void> {
  await page.locator(`[data-testid="bus-state"][data-state="${state}"]`).waitFor({ timeout: ms });
}

/** The hub's websocket connections of the member's bus user, from the monitoring port. */
async function browserConnections(): Promise<number> {
  const key = (await w.su.collection("bus_users").getOne(member.busUser)).public_key as string;
  const connz = (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/connz?auth=true&limit=10000`)).json()) as { connections: { type?: string; authorized_user?: string }[] };
  return connz.connections.filter((c) => c.type === "websocket" && c.authorized_user === key).length;
}

/** The JWTs the hub's websocket connections of the member's bus user were opened with. */
async function browserJwts(): Promise<string[]> {
  const key = (await w.su.collection("bus_users").getOne(member.busUser)).public_key as string;
  const connz = (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/connz?auth=true&limit=10000`)).json()) as { connections: { type?: string; authorized_user?: string; jwt?: string }[] };
  return connz.connections.filter((c) => c.type === "websocket" && c.authorized_user === key).map((c) => c.jwt ?? "");
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

describe("live view", () => {
  it("shows a Thing's heartbeat as it is published, from the server's address list", async () => {
    const { page, failures } = await signedIn(member.email, "Live");
    await waitForBusState(page, "connected");
    expect(await page.getByTestId("bus-source").textContent()).toContain("server's list");
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const marker = unique("beat");
      // The page notes the wall-clock time the row appears; the test publishes right after arming it.
      const seen = page.evaluate(
        (text) =>
          new Promise<number>((resolve) => {
            const table = document.querySelector('[data-testid="live-messages"]') as HTMLElement;
            const observer = new MutationObserver(() => {
              if (table.textContent?.includes(text)) {
                observer.disconnect();
                resolve(Date.now());
              }
            });
            observer.observe(table, { childList: true, subtree: true, characterData: true });
          }),
        marker,
      );
      await new Promise((r) => setTimeout(r, 50));
      const sentAt = Date.now();
      device.publish(`agents.${thingCode}.heartbeat`, JSON.stringify({ version: "test", uptime: "1s", time: new Date().toISOString(), state: "ok", marker }));
      latencies.push((await seen) - sentAt);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`live view: publish → row shown over ${sorted.length} messages: p50 ${percentile(sorted, 50)} ms, max ${sorted[sorted.length - 1]} ms`);
    await page.getByTestId("live-messages").getByText(`agents.${thingCode}.heartbeat`).first().waitFor();
    // The Thing is listed; a member cannot read bus identities, so its leaf is unknown, never "not attached".
    expect(await page.getByTestId("leaf-state").first().textContent()).toBe("Unknown");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "member-live");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("an owner sees the Thing's leaf as not attached (its bus user is a plain client, no uplink) and asks its health (no agent: said in words)", async () => {
    const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("owner-browser"), role: w.a.bus_roles.id, active: true });
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${w.users.owner.id}" && organization = "${w.a.organization.id}"`);
    await w.su.collection("memberships").update(membership.id, { bus_user: identity.id });
    const { page, failures } = await signedIn(w.users.owner.email, "Live");
    await waitForBusState(page, "connected");
    const row = page.getByTestId("live-things").getByRole("row").filter({ hasText: thingCode });
    await row.getByTestId("leaf-state").getByText("Not attached", { exact: true }).waitFor();
    await row.getByRole("button", { name: /^Health of / }).click();
    await page.getByTestId("health").getByRole("alert").waitFor();
    expect(await page.getByTestId("health").getByRole("alert").textContent()).toContain("No answer");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "owner-live");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("a gateway's site leaf shows attached while its uplink is up and not attached once it is gone; cmd.health renders like /ready", async () => {
    const owner = await w.client("owner");
    const { made, config } = await gatewayLeafConfig(bus.platform.url, owner);
    const stateDir = mkdtempSync(join(tmpdir(), "console-live-leaf-"));
    const leaf = await startSiteLeaf(config, stateDir);
    // The hub sees the uplink before the page asks.
    const uplinks = async () => ((await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/leafz`)).json()) as { leafs?: unknown[] }).leafs?.length ?? 0;
    expect(await eventually(async () => (await uplinks()) > 0, 15_000)).toBe(true);
    // The gateway's agent answers cmd.health with a readiness body (stood in for by a responder on its subject).
    const report = { ready: true, state: "warn", version: "1.2.3", uptime: "5m", took: "1ms", checked: new Date().toISOString(), checks: [
      { name: "bus", state: "ok", took: "0s" },
      { name: "hub_uplink", state: "warn", detail: "no uplink", fix: "check the hub", took: "0s" },
    ] };
    const responder = device.subscribe(`agents.${made.code}.cmd.health`, { callback: (_e, msg) => void msg.respond(JSON.stringify(report)) });
    await device.flush();
    try {
      const { page, failures } = await signedIn(w.users.owner.email, "Live");
      await waitForBusState(page, "connected");
      const row = page.getByTestId("live-things").getByRole("row").filter({ hasText: made.code });
      await row.getByTestId("leaf-state").getByText("Attached", { exact: true }).waitFor();
      await row.getByRole("button", { name: /^Health of / }).click();
      const health = page.getByTestId("health");
      await health.getByText("hub_uplink").waitFor();
      const text = await health.textContent();
      for (const part of ["Ready", "warn", "1.2.3", "no uplink", "check the hub"]) expect(text).toContain(part);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "owner-live-leaf-attached");
      await leaf.stop();
      expect(await eventually(async () => (await uplinks()) === 0, 15_000)).toBe(true);
      await page.getByRole("button", { name: "Ask the hub again" }).click();
      await row.getByTestId("leaf-state").getByText("Not attached", { exact: true }).waitFor();
      expect(failures).toEqual([]);
      await page.context().close();
    } finally {
      responder.unsubscribe();
      await leaf.stop().catch(() => undefined);
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it("suspending my bus user from an owner's Bus screen drops my browser's bus connection; reactivating there lets it back without a reload", async () => {
    const { page, failures } = await signedIn(member.email, "Live");
    await waitForBusState(page, "connected");
    expect(await eventually(async () => (await browserConnections()) === 1, 5_000)).toBe(true);
    const ownerTab = await signedIn(w.users.owner.email as string, "Bus");
    const name = (await w.su.collection("bus_users").getOne(member.busUser)).name as string;
    const users = ownerTab.page.getByRole("region", { name: "Bus users" });
    const row = users.locator("tbody tr").filter({ has: ownerTab.page.getByRole("cell", { name, exact: true }) });
    const answer = async (title: string, label: string) => {
      const dialog = ownerTab.page.getByRole("dialog", { name: title });
      await dialog.getByRole("button", { name: label, exact: true }).click();
      await dialog.waitFor({ state: "hidden" });
    };
    await row.getByRole("button", { name: `Suspend ${name}` }).click();
    await answer("Suspend bus user", "Suspend");
    await page.locator('[data-testid="bus-state"]:not([data-state="connected"])').waitFor({ timeout: 20_000 });
    expect(await eventually(async () => (await browserConnections()) === 0, 10_000)).toBe(true);
    // The hub only refuses; the identity's own record says why: suspended, in words, with who can mend it,
    // not its protocol line nor "reconnecting by itself". It stays so through the page's redials.
    await waitForBusState(page, "suspended");
    const detail = page.getByTestId("bus-detail");
    expect(await detail.textContent()).toContain(`“${name}” is suspended`);
    expect(await detail.textContent()).toContain("An owner or admin of this organization can reactivate it");
    expect(await page.getByTestId("bus-state").textContent()).toBe("Bus identity suspended");
    // Every state shown from now on is recorded while the page reads its identity's record twice more.
    await page.evaluate(() => {
      const shown: string[] = [];
      (window as unknown as { shownStates: string[] }).shownStates = shown;
      const observer = new MutationObserver(() => shown.push(document.querySelector("[data-testid=bus-state]")?.getAttribute("data-state") ?? "none"));
      observer.observe(document.querySelector("main")!, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    for (let reads = 0; reads < 2; reads++) await page.waitForResponse((response) => response.url().includes(`/api/collections/bus_users/records/${member.busUser}`));
    const shown = await page.evaluate(() => (window as unknown as { shownStates: string[] }).shownStates);
    expect(shown.filter((state) => state !== "suspended"), "states shown while suspended").toEqual([]);
    expect(await busState(page)).toBe("suspended");
    expect(await detail.textContent()).not.toMatch(/Authorization Violation|ConnectionError|reconnecting by itself/i);
    console.log(`suspended: bus state shown "${await busState(page)}", detail "${await detail.textContent()}"`);
    await row.getByRole("button", { name: `Reactivate ${name}` }).click();
    await answer("Reactivate bus user", "Reactivate");
    await waitForBusState(page, "connected", 30_000);
    expect(await browserConnections()).toBe(1);
    expect([...failures, ...ownerTab.failures]).toEqual([]);
    await page.context().close();
    await ownerTab.page.context().close();
  });

  it("rotating my own credential in Settings (another tab) reconnects the held bus connection with the new one", async () => {
    const { page, failures } = await signedIn(member.email, "Live");
    await waitForBusState(page, "connected");
    const jwtBefore = (await w.su.collection("bus_users").getOne(member.busUser)).jwt as string;
    expect(await eventually(async () => (await browserJwts()).includes(jwtBefore), 5_000)).toBe(true);
    const settings = await page.context().newPage();
    const settingsFailures = failedResponses(settings);
    await settings.goto("/settings");
    await screenSettled(settings, "Settings");
    await settings.getByRole("button", { name: "Rotate credential" }).click();
    await settings.getByRole("dialog").getByRole("button", { name: "Rotate", exact: true }).click();
    await settings.getByText("Credential rotated").waitFor();
    const jwtAfter = (await w.su.collection("bus_users").getOne(member.busUser)).jwt as string;
    expect(jwtAfter).not.toBe(jwtBefore);
    // The Live tab's connection is replaced by one opened with the rotated credential.
    expect(await eventually(async () => (await browserJwts()).join() === jwtAfter, 15_000)).toBe(true);
    await waitForBusState(page, "connected");
    expect([...failures, ...settingsFailures]).toEqual([]);
    await page.context().close();
  });

  it("signing out closes the browser's bus connection (its creds lived in memory only) and leaves nothing in storage", async () => {
    const { page, failures } = await signedIn(member.email, "Live");
    await waitForBusState(page, "connected");
    expect(await eventually(async () => (await browserConnections()) === 1, 5_000)).toBe(true);
    const creds = (await w.su.collection("bus_users").getOne(member.busUser)).creds_file as string;
    const seed = creds.match(/\bSU[A-Z2-7]{50,}/)?.[0] as string;
    expect(seed).toMatch(/^SU/);
    const stored = async () => page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(await stored()).not.toContain(seed);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/signin");
    expect(await eventually(async () => (await browserConnections()) === 0, 10_000)).toBe(true);
    expect(await stored()).not.toContain(seed);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("this device's override replaces the server's list; without either, the built-in default", async () => {
    const context = await browser.newContext({ baseURL: bus.platform.url });
    const { page, failures } = await signedIn(member.email, "Live", context);
    await waitForBusState(page, "connected");
    // One of the server's two names for the hub: the console's Content-Security-Policy admits the listed
    // addresses only (docs/decisions/430-content-security-policy-and-bus-override.md).
    await page.evaluate((url) => localStorage.setItem("console.busWebsocketUrls", JSON.stringify([url])), `ws://localhost:${bus.ports.websocket}`);
    await page.reload();
    await screenSettled(page, "Live");
    await waitForBusState(page, "connected");
    expect(await page.getByTestId("bus-source").textContent()).toContain("this device's override");
    expect(await page.locator(".bus-status").textContent()).toContain(`ws://localhost:${bus.ports.websocket}`);

    // No override and a server that lists nothing: the compiled-in ws://localhost:9222 (nothing listens there).
    await page.evaluate(() => localStorage.removeItem("console.busWebsocketUrls"));
    await context.route("**/api/client-config", (route) => route.fulfill({ json: { natsWebsocketUrls: [] } }));
    await page.reload();
    await screenSettled(page, "Live");
    await page.getByTestId("bus-source").waitFor();
    expect(await page.getByTestId("bus-source").textContent()).toContain("built-in default");
    expect(await page.locator(".bus-status").textContent()).toContain("ws://localhost:9222");
    expect(failures).toEqual([]);
    await context.close();
  });

  it("refuses a ws:// address on an https page with a message, dialing nothing", async () => {
    // The console served as https://console.test by proxying every request to the platform.
    const origin = "https://console.test";
    const context = await browser.newContext({ baseURL: origin });
    await context.route(`${origin}/**`, async (route) => {
      const url = route.request().url().replace(origin, bus.platform.url);
      route.fulfill({ response: await route.fetch({ url }) }).catch(() => undefined);
    });
    const sockets: string[] = [];
    const { page, failures } = await signedIn(member.email, "Live", context);
    page.on("websocket", (socket) => sockets.push(socket.url()));
    await waitForBusState(page, "refused");
    expect(await page.getByTestId("bus-detail").textContent()).toContain(`ws://127.0.0.1:${bus.ports.websocket}`);
    expect(sockets).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "member-live-https-refused");
    expect(failures).toEqual([]);
    await context.close();
  }, 300_000);
});

describe("visualizer", () => {
  it("a dashboard role's widgets show live values and the tab reconnects by itself through repeated hub outages (heap growth printed)", async () => {
    const dashboardUser = w.users.dashboard;
    const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("wallboard"), role: w.a.bus_roles.id, active: true });
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${dashboardUser.id}" && organization = "${w.a.organization.id}"`);
    await w.su.collection("memberships").update(membership.id, { bus_user: identity.id });
    const context = await browser.newContext({ baseURL: bus.platform.url });
    const page = await context.newPage();
    const failures = failedResponses(page);
    let dials = 0;
    page.on("websocket", () => dials++);
    await page.goto("/signin");
    await signInThroughForm(page, dashboardUser.email as string, PASSWORD);
    await screenSettled(page, "Visualizer");
    await waitForBusState(page, "connected");

    // A stat and a chart on the Thing's telemetry, added through the form; the defaults (badge, table) stay.
    for (const [kind, field, title] of [["Stat (latest value)", "load", "Load"], ["Time-series chart", "load", "Load over time"]] as const) {
      if ((await page.locator("details").getAttribute("open")) === null) await page.getByText("Add a widget").click();
      await page.getByLabel("Kind").selectOption({ label: kind });
      await page.getByLabel("Subject").fill(`agents.${thingCode}.telemetry`);
      await page.getByLabel("Field").fill(field);
      await page.getByLabel("Title").fill(title);
      await page.getByRole("button", { name: "Add widget" }).click();
      await page.getByRole("heading", { name: title, exact: true }).waitFor();
    }
    const stat = page.getByTestId("widget").filter({ has: page.getByRole("heading", { name: "Load", exact: true }) }).getByTestId("widget-value");
    const badge = page.getByTestId("widget").filter({ has: page.getByRole("heading", { name: "Latest heartbeat state" }) }).getByTestId("widget-value");
    let publisher = device;
    const publishSample = async (load: number) => {
      publisher.publish(`agents.${thingCode}.telemetry`, JSON.stringify({ time: new Date().toISOString(), load }));
      publisher.publish(`agents.${thingCode}.heartbeat`, JSON.stringify({ version: "t", uptime: "1s", time: new Date().toISOString(), state: load > 1 ? "warn" : "ok" }));
      await publisher.flush();
    };
    await publishSample(0.5);
    await stat.getByText("0.5", { exact: true }).waitFor();
    await badge.getByText("ok", { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "dashboard-visualizer");
    // Saved per organization in this browser: a reload keeps the added widgets.
    await page.reload();
    await screenSettled(page, "Visualizer");
    await page.getByRole("heading", { name: "Load over time", exact: true }).waitFor();
    await waitForBusState(page, "connected");
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const cdp = await context.newCDPSession(page);
    const heap = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const { metrics } = await cdp.send("Performance.getMetrics");
      return metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
    };
    await cdp.send("Performance.enable");
    const CYCLES = 3;
    const OUTAGE_MS = 5_000;
    const heapBefore = await heap();
    const dialsBefore = dials;
    // After the first outage (warm-up: the reconnect path's code and the widgets' bounded lists filling).
    let warm = { heap: 0, dials: 0 };
    let downMs = 0;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      await publisher.close().catch(() => undefined);
      const down = Date.now();
      await bus.stopNats();
      await page.locator('[data-testid="bus-state"]:not([data-state="connected"])').waitFor({ timeout: 20_000 });
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      await bus.startNats();
      downMs += Date.now() - down;
      await waitForBusState(page, "connected", 30_000);
      publisher = await connectWithCreds(bus.busUrl, (await w.su.collection("bus_users").getOne(w.a.bus_users.id)).creds_file as string);
      // Resubscribed after the reconnect: a new value reaches the widgets.
      await eventually(async () => {
        await publishSample(cycle + 1);
        return (await stat.textContent()) === String(cycle + 1);
      }, 15_000);
      expect(await stat.textContent()).toBe(String(cycle + 1));
      const now = await heap();
      if (cycle === 1) warm = { heap: now, dials };
      console.log(`outage ${cycle}: reconnected, heap ${(now / 1e6).toFixed(2)} MB, ${dials - dialsBefore} dials so far`);
    }
    device = publisher;
    await badge.getByText("warn", { exact: true }).waitFor();
    const heapAfter = await heap();
    const failedDials = dials - dialsBefore;
    const growth = heapAfter - heapBefore;
    const perCycle = (heapAfter - warm.heap) / (CYCLES - 1);
    console.log(
      `visualizer outages: ${CYCLES} hub stops of ~${OUTAGE_MS / 1000} s (${(downMs / 1000).toFixed(0)} s down in all), ${failedDials} websocket dials; ` +
        `JS heap after GC ${(heapBefore / 1e6).toFixed(2)} MB → ${(heapAfter / 1e6).toFixed(2)} MB (growth ${(growth / 1e6).toFixed(2)} MB); ` +
        `after the first outage ${(perCycle / 1e3).toFixed(1)} KB per outage, ${(dials - warm.dials) > 0 ? ((heapAfter - warm.heap) / (dials - warm.dials) / 1e3).toFixed(1) : "-"} KB per dial`,
    );
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(growth).toBeLessThan(10e6);
    expect(failures).toEqual([]);
    await context.close();
  }, 300_000);

  it("through one hour of hub outage, compressed with the page's clock, the visualizer tab's heap grows < 10 MB and it reconnects without a reload", async () => {
    const context = await browser.newContext({ baseURL: bus.platform.url });
    // Fake timers from the first script on, flowing in real time until the outage fast-forwards them.
    await context.clock.install();
    const page = await context.newPage();
    const failures = failedResponses(page);
    let dials = 0;
    page.on("websocket", () => dials++);
    await page.goto("/signin");
    await signInThroughForm(page, member.email, PASSWORD);
    await page.waitForURL((url) => url.pathname !== "/signin");
    await page.goto("/visualizer");
    await screenSettled(page, "Visualizer");
    await waitForBusState(page, "connected");
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const heap = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const { metrics } = await cdp.send("Performance.getMetrics");
      return metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
    };
    const heapBefore = await heap();

    await bus.stopNats();
    await page.locator('[data-testid="bus-state"]:not([data-state="connected"])').waitFor({ timeout: 20_000 });
    const HOUR_MS = 3_600_000;
    // The longest wait between dials (console/src/bus/backoff.ts), so each step starts about one dial.
    const STEP_MS = 10_000;
    const dialsBefore = dials;
    for (let elapsed = 0; elapsed < HOUR_MS; elapsed += STEP_MS) {
      await page.clock.runFor(STEP_MS);
      // A dial the step started fails on the closed port in real time: let it, before the next step.
      await new Promise((r) => setTimeout(r, 100));
    }
    const outageDials = dials - dialsBefore;
    const heapAfterOutage = await heap();
    await bus.startNats();
    await page.clock.runFor(15_000);
    await waitForBusState(page, "connected", 30_000);
    const growth = heapAfterOutage - heapBefore;
    console.log(
      `visualizer, one hour of hub outage compressed with the page clock: ${outageDials} websocket dials; ` +
        `JS heap after GC ${(heapBefore / 1e6).toFixed(2)} MB → ${(heapAfterOutage / 1e6).toFixed(2)} MB (growth ${(growth / 1e6).toFixed(2)} MB, ` +
        `${outageDials > 0 ? (growth / outageDials / 1e3).toFixed(1) : "-"} KB per dial)`,
    );
    expect(outageDials).toBeGreaterThan(300);
    expect(growth).toBeLessThan(10e6);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(failures).toEqual([]);
    await context.close();
  }, 600_000);
});
