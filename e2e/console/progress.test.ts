// The progress indicator in chromium against a real platform: the sign-in, a list answer, a dialog's
// submit and a screen's chunk, each held back with page.route, show the indicator only once the work has been in
// flight for 300 ms, and the indicator goes away when the work settles. The times come from the page
// itself: a MutationObserver stamps the indicator's appearance and removal, resource timing the request.
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { failedResponses, screenSettled, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { PASSWORD } from "../harness/world";

const { platform, world, ui } = useConsole();

/** How long a held-back response waits: well past the 300 ms threshold. */
const HELD_MS = 1500;
/** Timer and event-loop slack between track() starting and the browser's fetch starting. */
const SLACK_MS = 20;

/** Stamps (performance.now()) each time a progress bar appears in or leaves the document. */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: Array<{ shown: boolean; at: number }> = [];
    (window as unknown as { progressLog: typeof log }).progressLog = log;
    let shown = false;
    new MutationObserver(() => {
      const now = document.querySelector('[role="progressbar"]') !== null;
      if (now !== shown) log.push({ shown: (shown = now), at: performance.now() });
    }).observe(document.body, { childList: true, subtree: true });
  });
}

/**
 * The progress stamps and when the last request whose URL contains `part` started (its responseEnd is
 * not used: chromium reports a held-back script's as if it had not waited).
 */
async function timings(page: Page, part: string): Promise<{ log: Array<{ shown: boolean; at: number }>; start: number }> {
  return page.evaluate((part) => {
    const entries = performance.getEntriesByType("resource").filter((e) => e.name.includes(part));
    const last = entries[entries.length - 1];
    if (!last) throw new Error(`no request for ${part}`);
    return { log: (window as unknown as { progressLog: Array<{ shown: boolean; at: number }> }).progressLog, start: last.startTime };
  }, part);
}

function holdBack(): (route: Route) => Promise<void> {
  return async (route) => {
    await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    await route.continue();
  };
}

/**
 * The indicator first appeared at least 300 ms after the request started, and left once it was answered
 * (what follows, e.g. the screen loading after sign-in, may show it again on a slow machine).
 */
function expectShownAfterDelay(result: Awaited<ReturnType<typeof timings>>): void {
  expect(result.log.slice(0, 2).map((entry) => entry.shown)).toEqual([true, false]);
  const [shown, hidden] = result.log as [{ at: number }, { at: number }, ...unknown[]];
  expect(shown.at - result.start).toBeGreaterThanOrEqual(300 - SLACK_MS);
  expect(shown.at - result.start).toBeLessThan(HELD_MS);
  expect(hidden.at - result.start).toBeGreaterThanOrEqual(HELD_MS - SLACK_MS);
}

describe("console progress indicator", () => {
  it("appears after 300 ms of a slow sign-in, list, dialog submit and screen chunk, not before, and goes away", async () => {
    const context = await ui.browser.newContext({ baseURL: platform.url });
    const page = await context.newPage();
    const failures = failedResponses(page);
    const indicator = page.getByRole("progressbar", { name: "Loading" });

    // The sign-in form: its page shows the indicator too.
    await page.goto("/signin");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await watchProgress(page);
    await page.route("**/api/collections/users/auth-with-password", holdBack());
    await signInThroughForm(page, world.users.owner.email as string, PASSWORD);
    await page.waitForURL("**/things");
    await screenSettled(page, "Things");
    expectShownAfterDelay(await timings(page, "/api/collections/users/auth-with-password"));
    await page.unroute("**/api/collections/users/auth-with-password");
    expect(await indicator.count()).toBe(0);

    // A list: the Things search asks the server again.
    await watchProgress(page);
    await page.route("**/api/collections/things/records?**", holdBack());
    await page.getByLabel("Search").fill("Thermostat");
    await indicator.waitFor();
    await indicator.waitFor({ state: "detached" });
    expectShownAfterDelay(await timings(page, "/api/collections/things/records?"));
    await page.unroute("**/api/collections/things/records?**");
    await page.locator('main[aria-busy="false"]').waitFor();

    // A dialog's submit: the Thing's edit form saves; the dialog shows its own indicator.
    await page.getByRole("button", { name: "Thermostat", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Thing Thermostat" });
    await dialog.getByRole("button", { name: "Edit" }).click();
    await watchProgress(page);
    await page.route(`**/api/collections/things/records/${world.a.things.id}?**`, async (route) => {
      if (route.request().method() === "PATCH") await holdBack()(route);
      else await route.continue();
    });
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByRole("progressbar", { name: "Loading" }).waitFor();
    await dialog.getByRole("progressbar", { name: "Loading" }).waitFor({ state: "detached" });
    expectShownAfterDelay(await timings(page, `/api/collections/things/records/${world.a.things.id}`));
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });

    // A screen's chunk, loaded the first time the screen opens.
    await watchProgress(page);
    await page.route("**/assets/Members-*.js", holdBack());
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" }).click();
    await screenSettled(page, "Members");
    expect(await indicator.count()).toBe(0);
    expectShownAfterDelay(await timings(page, "/assets/Members-"));

    expect(failures).toEqual([]);
    await context.close();
  });
});
