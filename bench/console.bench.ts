// The console in headless Debian chromium against a real platform on loopback (issue 12 budgets; figures
// only, nothing asserted): the first contentful paint of the sign-in page over cold loads (a new browser
// context each, so nothing cached), and the time from submitting the sign-in form to the first row of the
// Things list on screen for an owner whose organization holds 100,000 Things. Also prints the size
// budgets as make test checks them.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { CONSOLE_DIR, launchBrowser } from "../e2e/harness/browser";
import { startPlatform } from "../e2e/harness/platform";
import { createMember, createOrganization, PASSWORD } from "../e2e/harness/world";
import { consoleSizes, sizeLine } from "../scripts/console-sizes.mjs";
import { insertForOrganization, ROWS, THINGS_INSERT } from "./organization-rows";
import { report } from "./stats";

const PERCENTILES = [50, 95, 99] as const;
const FCP_LOADS = 30;
const SIGN_IN_RUNS = 20;
/** Untimed runs first: the platform's and chromium's own start-up is not what is measured. */
const WARMUP = 3;

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

/** A page in a fresh context: an empty cache, as on a first visit. */
async function coldPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: url });
  return context.newPage();
}

async function firstContentfulPaint(browser: Browser, url: string): Promise<number> {
  const page = await coldPage(browser, url);
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  const fcp = await page.evaluate(() => new Promise<number>((resolve) => {
    new PerformanceObserver((list) => {
      const entry = list.getEntries().find((e) => e.name === "first-contentful-paint");
      if (entry) resolve(entry.startTime);
    }).observe({ type: "paint", buffered: true });
  }));
  await page.context().close();
  return fcp;
}

/** From the sign-in form's submit to the frame after the Things list's first row is in the document. */
async function signInToFirstRow(browser: Browser, url: string, email: string): Promise<number> {
  const page = await coldPage(browser, url);
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  const elapsed = page.evaluate(() => new Promise<number>((resolve) => {
    let submitted = 0;
    document.addEventListener("submit", () => (submitted = performance.now()), { capture: true });
    const observer = new MutationObserver(() => {
      if (!submitted || !document.querySelector("main tbody tr")) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - submitted));
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }));
  await page.getByRole("button", { name: "Sign in" }).click();
  const ms = await elapsed;
  await page.context().close();
  return ms;
}

async function runs(count: number, run: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await run());
  return samples;
}

for (const figure of consoleSizes(CONSOLE_DIR)) console.log(sizeLine(figure));

const platform = await startPlatform({ env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
const browser = await launchBrowser();
try {
  const su = await platform.superuser();
  const org = await createOrganization(su, "Console");
  const owner = (await createMember(su, org.id, "owner")).email as string;
  insertForOrganization(platform.dataDir, org.id, [THINGS_INSERT]);
  const seeded = await su.collection("things").getList(1, 1, { filter: su.filter("organization = {:org}", { org: org.id }) });
  if (seeded.totalItems !== ROWS) throw new Error(`expected ${ROWS} Things in the organization, saw ${seeded.totalItems}`);

  report(`console: first contentful paint of /signin, cold loads (target <= 300 ms)`, await runs(FCP_LOADS, () => firstContentfulPaint(browser, platform.url)), PERCENTILES);
  report(`console: sign-in submitted to the first Things row, ${ROWS} Things in the organization (target <= 800 ms)`,
    await runs(SIGN_IN_RUNS, () => signInToFirstRow(browser, platform.url, owner)), PERCENTILES);
} finally {
  await browser.close();
  await platform.stop();
}
