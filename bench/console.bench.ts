// The console in headless Debian chromium against a real platform on loopback (issue 12 budgets; figures
// only, nothing asserted): the sign-in page over cold loads (a new browser context each, so nothing
// cached): its first contentful paint, when the sign-in form itself is on screen, and the bytes on the wire
// (issue 38: the median of 5 loads), as shipped and without compression, the boot card, or both; and the time
// from submitting the sign-in form to the first row of the Things list on screen for an owner whose
// organization holds 100,000 Things. Also prints the size budgets as make test checks them.
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { CONSOLE_DIR, launchBrowser } from "../e2e/harness/browser";
import { startPlatform } from "../e2e/harness/platform";
import { createMember, createOrganization, PASSWORD } from "../e2e/harness/world";
import { consoleSizes, sizeLine } from "../scripts/console-sizes.mjs";
import { insertForOrganization, ROWS, THINGS_INSERT } from "./organization-rows";
import { median, report } from "./stats";

const PERCENTILES = [50, 95, 99] as const;
const COLD_LOADS = 5;
const SIGN_IN_RUNS = 20;
/** Untimed runs first: the platform's and chromium's own start-up is not what is measured. */
const WARMUP = 3;

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

/** A page in a fresh context: an empty cache, as on a first visit. */
async function coldPage(browser: Browser, url: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ ...options, baseURL: url });
  return context.newPage();
}

interface SignInLoad {
  /** First contentful paint, ms from navigation start. */
  fcp: number;
  /** The frame after the sign-in form's button entered the document (the console mounted), ms. */
  form: number;
  /** Response bodies and headers as received. */
  bytes: number;
}

/** How a series of loads differs from the page as shipped. */
interface Variant {
  context?: BrowserContextOptions;
  /** index.html without the card it paints before the scripts run (console/boot.css; decision 459). */
  withoutBootCard?: boolean;
}

const BOOT_CARD = /<div class="boot"[^]*?<\/div><\/div>/;

async function loadSignIn(browser: Browser, url: string, variant: Variant): Promise<SignInLoad> {
  const page = await coldPage(browser, url, variant.context);
  if (variant.withoutBootCard) {
    await page.route("**/signin", async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      if (!BOOT_CARD.test(html)) throw new Error("index.html has no boot card to leave out");
      await route.fulfill({ response, body: html.replace(BOOT_CARD, "") });
    });
  }
  // Registered before the page's scripts run; the init script is not subject to its policy.
  await page.addInitScript(() => {
    const marked = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!Array.from(document.querySelectorAll("button")).some((b) => b.textContent?.trim() === "Sign in")) return;
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now()));
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    (window as unknown as { formShown: Promise<number> }).formShown = marked;
  });
  const sizes: Array<Promise<number>> = [];
  page.on("requestfinished", (request) => sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  const timings = await page.evaluate(async () => ({
    form: await (window as unknown as { formShown: Promise<number> }).formShown,
    fcp: await new Promise<number>((resolve) => {
      new PerformanceObserver((list) => {
        const entry = list.getEntries().find((e) => e.name === "first-contentful-paint");
        if (entry) resolve(entry.startTime);
      }).observe({ type: "paint", buffered: true });
    }),
  }));
  const bytes = (await Promise.all(sizes)).reduce((sum, n) => sum + n, 0);
  await page.context().close();
  return { ...timings, bytes };
}

/**
 * COLD_LOADS cold loads of each variant (after WARMUP untimed rounds), taken in turn, so that a change in
 * the machine's load falls on every variant alike; one line each: the medians of first paint, form and bytes.
 */
async function signInLoads(browser: Browser, url: string, variants: Record<string, Variant>): Promise<void> {
  const loads = new Map<string, SignInLoad[]>(Object.keys(variants).map((label) => [label, []]));
  for (let round = 0; round < WARMUP + COLD_LOADS; round++) {
    for (const [label, variant] of Object.entries(variants)) {
      const load = await loadSignIn(browser, url, variant);
      if (round >= WARMUP) loads.get(label)?.push(load);
    }
  }
  for (const [label, samples] of loads) {
    const list = (pick: (load: SignInLoad) => number) => samples.map((load) => pick(load).toFixed(0)).join(", ");
    console.log(`console: /signin cold, ${label}: median of ${COLD_LOADS} first contentful paint ${median(samples.map((l) => l.fcp)).toFixed(0)} ms ` +
      `(target <= 300 ms; ${list((l) => l.fcp)}), sign-in form on screen ${median(samples.map((l) => l.form)).toFixed(0)} ms (${list((l) => l.form)}), ` +
      `${(median(samples.map((l) => l.bytes)) / 1024).toFixed(1)} KB on the wire (cores=${cpus().length})`);
  }
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

  // As shipped and, in the same run, what each change of issue 38 alone is worth, and both left out (its
  // stylesheets still ask first, so a little faster than the page before issue 38).
  const identity = { extraHTTPHeaders: { "Accept-Encoding": "identity" } };
  await signInLoads(browser, platform.url, {
    "as shipped (br)": {},
    "compression refused": { context: identity },
    "without the boot card": { withoutBootCard: true },
    "neither boot card nor compression": { context: identity, withoutBootCard: true },
  });
  report(`console: sign-in submitted to the first Things row, ${ROWS} Things in the organization (target <= 800 ms)`,
    await runs(SIGN_IN_RUNS, () => signInToFirstRow(browser, platform.url, owner)), PERCENTILES);
} finally {
  await browser.close();
  await platform.stop();
}
