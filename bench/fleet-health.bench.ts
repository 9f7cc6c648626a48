// Fleet health at 1,000 sites (issue 38 item 3: computed <= 5 s; figures only, nothing asserted). Two
// figures: the report itself (console/src/fleet/report.ts, pure) over 1,000 sites in Node, and in headless
// Debian chromium against a real platform and hub, from clicking "Fleet health" to all 1,000 sites counted
// attached (the records read, the bus dialed, the hub's CONNZ gathered for its 1.5 s window). The sites are
// SIMULATED (e2e/harness/fleet-sites.ts: Things and bus users written with sqlite3, a responder answering
// CONNZ beside the hub and publishing heartbeats); e2e/console/fleet-health.test.ts adds real leaf servers.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONSOLE_DIR, launchBrowser, openScreen } from "../e2e/harness/browser";
import { connectWithCreds, startPlatformWithBus } from "../e2e/harness/bus";
import { seedSimulatedSites, simulateSites } from "../e2e/harness/fleet-sites";
import { buildWorld, PASSWORD, unique } from "../e2e/harness/world";
import { fleetReport, type FleetInputs } from "../console/src/fleet/report";
import { measure, report } from "./stats";

const SITES = 1_000;
const PERCENTILES = [50, 95, 99] as const;
const OPENS = 10;
const WARMUP = 2;

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

/** 1,000 sites as the screen holds them, 10 % islanded and quiet, a few credentials within their window. */
function inputsAt(now: number): FleetInputs {
  const jwt = (iat: number, exp: number) => `e30.${Buffer.from(JSON.stringify({ iat, exp })).toString("base64url")}.x`;
  const iat = now / 1000 - 20 * 86_400;
  const things = Array.from({ length: SITES }, (_, n) => ({ id: `t${n}`, name: `Site ${n}`, code: `S-${n}`, active: true, bus_user: `u${n}`, overlay_host: `h${n}` }));
  return {
    things,
    busUsers: things.map((_, n) => ({ id: `u${n}`, name: `user ${n}`, active: true, public_key: `UKEY${n}`, expires: iat + (n % 50 === 0 ? 30 : 60) * 86_400, jwt: jwt(iat, iat + (n % 50 === 0 ? 30 : 60) * 86_400) })),
    hosts: things.map((_, n) => ({ id: `h${n}`, name: `host ${n}`, active: true, not_after: new Date(now + (n % 40 === 0 ? 10 : 300) * 86_400_000).toISOString() })),
    ca: { not_after: new Date(now + 365 * 86_400_000).toISOString(), next_not_after: "" },
    accountJwt: "x".repeat(48_000),
    connections: { leaf: new Set(things.filter((_, n) => n % 10 !== 0).map((_, n) => `UKEY${n}`)), client: new Set() },
    heard: new Map(things.filter((_, n) => n % 10 !== 0).map((t) => [t.code, now - 5_000])),
    listeningSince: now - 120_000,
    quietAfterMs: 45_000,
    now,
  };
}

async function main(): Promise<void> {
  const inputs = inputsAt(Date.now());
  report(`fleet health: report over ${SITES} sites (pure, Node)`, await measure(200, 20, async () => fleetReport(inputs)), PERCENTILES);

  const bus = await startPlatformWithBus({ advertiseWebsocket: true, env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
  const browser = await launchBrowser();
  try {
    const w = await buildWorld(bus.platform);
    const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("owner-browser"), role: w.a.bus_roles.id, active: true });
    const membership = await w.su.collection("memberships").getFirstListItem(`user = "${w.users.owner.id}" && organization = "${w.a.organization.id}"`);
    await w.su.collection("memberships").update(membership.id, { bus_user: identity.id });
    const device = await connectWithCreds(bus.busUrl, (await w.su.collection("bus_users").getOne(w.a.bus_users.id)).creds_file as string);
    const responder = await simulateSites(device, seedSimulatedSites(bus.platform.dataDir, w.a.organization.id, SITES, "b"), 5_000);
    const { page } = await openScreen(await browser.newContext({ baseURL: bus.platform.url }), w.users.owner.email as string, PASSWORD, "Settings");
    const nav = page.getByRole("navigation", { name: "Main" });
    // From Settings, so the screen and its bus connection start afresh. Not from Things: its choices list
    // every bus user (500 a page) and, run beside this screen's pages, stalls the hooks (see the report).
    const open = async () => {
      await nav.getByRole("link", { name: "Settings", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      const started = performance.now();
      await nav.getByRole("link", { name: "Fleet health", exact: true }).click();
      await page.waitForFunction((n) => document.querySelector('[data-testid="site-count"][data-state="attached"] strong')?.textContent === String(n), SITES, { polling: "raf", timeout: 60_000 })
        .catch(async (error: unknown) => {
          throw new Error(`${String(error)}; the screen shows: ${await page.locator("main").innerText()}`.slice(0, 3000));
        });
      return performance.now() - started;
    };
    for (let i = 0; i < WARMUP; i++) await open();
    const samples: number[] = [];
    for (let i = 0; i < OPENS; i++) samples.push(await open());
    report(`fleet health: click to ${SITES} simulated sites counted attached (owner, chromium; includes the 1.5 s CONNZ window)`, samples, PERCENTILES);
    responder.stop();
    await device.close();
  } finally {
    await browser.close();
    await bus.stop();
  }
}

await main();
