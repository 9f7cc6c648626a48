// The console at phone width (360 x 740) in chromium against a real platform: an owner and a Platform
// Operator walk every screen of their navigation; the page itself never scrolls sideways (a wide table
// scrolls inside its own box), every navigation link lies within the screen, dialogs fit it, and a
// screenshot of each screen and dialog is saved. The keyboard: Tab reaches the navigation and the screen's
// primary action; Escape closes a dialog and focus goes back to what opened it.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { failedResponses, screenSettled, screenshot, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { PASSWORD } from "../harness/world";

const { platform, world, ui } = useConsole();

const WIDTH = 360;
const HEIGHT = 740;

async function openAtPhoneWidth(email: string): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url, viewport: { width: WIDTH, height: HEIGHT } });
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await expectNoSidewaysScroll(page, "sign-in");
  await screenshot(page, "360-signin");
  await signInThroughForm(page, email, PASSWORD);
  return { page, failures };
}

/** The page itself is no wider than the viewport (what overflows scrolls inside its own box). */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const width = await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
  expect(width, `${where}: page width at a ${WIDTH} px viewport`).toBeLessThanOrEqual(WIDTH);
}

/** The element lies horizontally within the viewport. */
async function expectWithinWidth(element: Locator, where: string): Promise<void> {
  const box = await element.boundingBox();
  expect(box, `${where}: rendered`).not.toBeNull();
  expect(box!.x, `${where}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${where}: right edge`).toBeLessThanOrEqual(WIDTH);
}

/** A dialog opened by `open`: it fits the screen; it is shot and then closed with its `close` button. */
async function checkDialog(page: Page, name: string, open: () => Promise<void>, close: string): Promise<void> {
  await open();
  const dialog = page.getByRole("dialog", { name });
  await dialog.waitFor();
  await expectWithinWidth(dialog, `dialog ${name}`);
  const box = (await dialog.boundingBox())!;
  expect(box.y + box.height, `dialog ${name}: bottom edge`).toBeLessThanOrEqual(HEIGHT);
  await expectNoSidewaysScroll(page, `dialog ${name}`);
  await screenshot(page, `360-dialog-${name.toLowerCase().replace(/\s+/g, "-")}`);
  await dialog.getByRole("button", { name: close, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** Walks every screen of the navigation: no sideways scroll, each link on screen, a screenshot. */
async function walkScreens(page: Page, who: string): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link").first().waitFor();
  const titles = await nav.getByRole("link").allTextContents();
  for (const title of titles) {
    const link = nav.getByRole("link", { name: title, exact: true });
    await link.scrollIntoViewIfNeeded();
    await expectWithinWidth(link, `${who}: navigation link ${title}`);
    await link.click();
    await screenSettled(page, title);
    await expectNoSidewaysScroll(page, `${who} on ${title}`);
    await screenshot(page, `360-${who}-${title.toLowerCase().replace(/\s+/g, "-")}`);
  }
  return titles;
}

describe("console at 360 px", () => {
  it("owner: every screen fits the width, the navigation is on screen, dialogs fit", async () => {
    const { page, failures } = await openAtPhoneWidth(world.users.owner.email as string);
    await page.waitForURL("**/things");
    const titles = await walkScreens(page, "owner");
    expect(titles).toEqual(expect.arrayContaining(["Things", "Members", "Invitations", "Settings"]));

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Things", exact: true }).click();
    await screenSettled(page, "Things");
    await checkDialog(page, "New Thing", () => page.getByRole("button", { name: "New Thing" }).click(), "Cancel");
    await checkDialog(page, "Thing Thermostat", () => page.getByRole("button", { name: "Thermostat", exact: true }).click(), "Close");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invitations", exact: true }).click();
    await screenSettled(page, "Invitations");
    await checkDialog(page, "Revoke invitation", () => page.getByRole("button", { name: /^Revoke the invitation of / }).first().click(), "Cancel");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("Platform Operator: every screen fits the width and the navigation is on screen", async () => {
    const { page, failures } = await openAtPhoneWidth(world.users.operator.email as string);
    await page.waitForURL("**/organizations");
    const titles = await walkScreens(page, "operator");
    expect(titles).toEqual(expect.arrayContaining(["Invitations", "Organizations", "Audit log", "Settings"]));
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("keyboard: Tab reaches the navigation and the primary action; Escape closes a dialog and focus returns", async () => {
    const { page } = await openAtPhoneWidth(world.users.owner.email as string);
    await page.waitForURL("**/things");
    await screenSettled(page, "Things");
    const reached: string[] = [];
    for (let presses = 0; presses < 40 && !reached.includes("button New Thing"); presses++) {
      await page.keyboard.press("Tab");
      reached.push(await page.evaluate(() => {
        const active = document.activeElement;
        const where = active?.closest("nav") ? "nav " : "";
        return `${where}${active?.tagName.toLowerCase() ?? ""} ${active?.textContent?.trim() ?? ""}`;
      }));
    }
    expect(reached).toContain("nav a Things");
    expect(reached).toContain("button New Thing");

    await page.keyboard.press("Enter");
    const wizard = page.getByRole("dialog", { name: "New Thing" });
    await wizard.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest("dialog") !== null), "focus moved into the dialog").toBe(true);
    await page.keyboard.press("Escape");
    await wizard.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("New Thing");
    await page.context().close();
  });
});
