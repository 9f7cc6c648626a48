// The console on a phone (360 and 320 px wide) and on a desktop, in chromium against a real platform, for
// a Platform Operator and every role of an organization whose name is 60 characters long, each signed in
// with a 60-character e-mail address. On every screen of the navigation: the page never scrolls sideways,
// no response is >= 400 and axe finds nothing serious or critical; a screenshot of each screen at 360 px
// and at desktop width goes to build/console-screenshots. Every "New …" dialog of a screen fits the width
// and its backdrop covers the viewport's four corners, as do a Thing's dialog and a confirmation; Escape
// closes each and focus goes back to its opener. Tab reaches the navigation and a screen's primary action.
// The header's Menu button (phone width) is a disclosure a keyboard and a screen reader can use. And the Bus screen's small things: limits in one
// order on every load, a role without restriction reads "any subject".
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOTS_DIR, failedResponses, screenSettled, screenshot, seriousViolations, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { PASSWORD, ROLES, createMember, createUser, seedOrganization, unique } from "../harness/world";

const { platform, world, ui } = useConsole();

const PHONE_WIDTHS = [360, 320] as const;
const DESKTOP = { width: 1280, height: 800 };
const PHONE_HEIGHT = 740;
const LONG = 60;
/** Walking a role's screens with axe on each takes longer than one ordinary test. */
const WALK_TIMEOUT = 240_000;

type Who = (typeof ROLES)[number] | "operator";
const WHO: readonly Who[] = ["operator", ...ROLES];

/** A unique address of exactly LONG characters. */
function longEmail(who: string): string {
  const domain = "@example.test";
  return `${unique(who)}.`.padEnd(LONG - domain.length, "x") + domain;
}

const emails = {} as Record<Who, string>;
let organization: RecordModel;

beforeAll(async () => {
  const name = `Northwestern Regional Water Treatment Authority ${unique("o")}`.slice(0, LONG).padEnd(LONG, "x");
  organization = await world.su.collection("organizations").create({ name, code: unique("phone"), active: true });
  await seedOrganization(world.su, organization);
  for (const role of ROLES) emails[role] = (await createMember(world.su, organization.id, role, longEmail(role))).email as string;
  emails.operator = (await createUser(world.su, longEmail("operator"), { is_operator: true })).email as string;
}, 120_000);

async function signedIn(email: string, viewport: { width: number; height: number }): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url, viewport });
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await signInThroughForm(page, email, PASSWORD);
  await page.waitForURL((url) => url.pathname !== "/signin");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link").first().waitFor();
  return { page, failures };
}

/** The page itself is no wider than the viewport (a wide table scrolls inside its own box). */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, viewport, beyond } = await page.evaluate(() => {
    const viewport = window.innerWidth;
    // The innermost elements reaching past the right edge name the culprit in a failure.
    const beyond = Array.from(document.body.querySelectorAll("*"))
      .filter((e) => e.getBoundingClientRect().right > viewport + 0.5 && !Array.from(e.children).some((c) => c.getBoundingClientRect().right > viewport + 0.5))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}.${Array.from(e.classList).join(".")} (${Math.round(e.getBoundingClientRect().right)} px)`);
    return { scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth, viewport, beyond };
  });
  expect(scrollWidth, `${where}: page width at a ${viewport} px viewport; reaching past it: ${beyond.join(", ")}`).toBeLessThanOrEqual(viewport);
}

/** axe's serious and critical findings once the console's per-frame upkeep (focusable wide tables) ran. */
async function axeAfterFrame(page: Page): Promise<string[]> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return seriousViolations(page);
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * The open modal dialog fits the viewport and its backdrop covers it: a point at each corner of the
 * viewport hits the dialog (the backdrop's hits go to its dialog), and the page is still no wider.
 */
async function expectDialogCoversViewport(page: Page, where: string): Promise<void> {
  const cover = await page.evaluate(() => {
    const dialog = document.querySelector("dialog[open]");
    const [w, h] = [window.innerWidth, window.innerHeight];
    const corners = [[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]].map(([x, y]) => document.elementFromPoint(x, y) === dialog);
    const box = dialog?.getBoundingClientRect();
    return { corners, left: box?.left ?? -1, right: box?.right ?? Infinity, width: w };
  });
  expect(cover.corners, `${where}: the backdrop covers the viewport's corners`).toEqual([true, true, true, true]);
  expect(cover.left, `${where}: dialog's left edge`).toBeGreaterThanOrEqual(0);
  expect(cover.right, `${where}: dialog's right edge`).toBeLessThanOrEqual(cover.width);
  await expectNoSidewaysScroll(page, where);
}

/**
 * The dialog `opener` opens: it fits, its backdrop covers the viewport, axe passes (a screenshot when
 * `shot` names it); Escape closes it and focus goes back to `opener`.
 */
async function checkDialog(page: Page, where: string, opener: Locator, shot: string | null): Promise<void> {
  await opener.click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await expectDialogCoversViewport(page, where);
  expect(await axeAfterFrame(page), where).toEqual([]);
  // The viewport as the user sees it: a full-page shot would show the (fixed) backdrop stopping short.
  if (shot) await page.screenshot({ path: join(SCREENSHOTS_DIR, `${shot}.png`) });
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  expect(await opener.evaluate((element) => element === document.activeElement), `${where}: focus back on the opener`).toBe(true);
}

/** Every "New …" dialog of the screen, through checkDialog. */
async function checkNewDialogs(page: Page, where: string, shots: boolean): Promise<void> {
  const openers = page.locator("main").getByRole("button", { name: /^New / });
  for (let i = 0; i < (await openers.count()); i++) {
    const opener = openers.nth(i);
    const label = (await opener.textContent())?.trim() ?? "";
    await checkDialog(page, `${where}, dialog ${label}`, opener, shots ? `phone-360-dialog-${slug(label)}` : null);
  }
}

/** Walks every screen of the navigation; returns the titles walked. */
async function walk(page: Page, who: Who, width: number, shots: string | null): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Main" });
  const titles = await nav.getByRole("link").allTextContents();
  for (const title of titles) {
    const where = `${who} at ${width} px on ${title}`;
    const link = nav.getByRole("link", { name: title, exact: true });
    const box = (await link.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= width, `${where}: its navigation link within the width`).toBe(true);
    await link.click();
    await screenSettled(page, title);
    await expectNoSidewaysScroll(page, where);
    expect(await axeAfterFrame(page), where).toEqual([]);
    if (shots) await screenshot(page, `${shots}-${who}-${slug(title)}`);
    if (width < DESKTOP.width) await checkNewDialogs(page, where, width === 360);
  }
  return titles;
}

/** Opens the header's menu with its button; returns the button. */
async function openMenu(page: Page) {
  const toggle = page.getByRole("button", { name: "Menu" });
  await toggle.click();
  await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
  return toggle;
}

describe("console at phone width, every role, 60-character names", () => {
  for (const width of PHONE_WIDTHS) {
    for (const who of WHO) {
      it(`${who} at ${width} px: every screen and "New …" dialog fits, the header's menu too; nothing >= 400; axe clean`, async () => {
        const { page, failures } = await signedIn(emails[who], { width, height: PHONE_HEIGHT });
        // The long organization name and address are behind the menu: open, they fit too.
        const toggle = await openMenu(page);
        await expectNoSidewaysScroll(page, `${who} at ${width} px, menu open`);
        expect(await page.locator("#header-menu").textContent()).toContain(emails[who]);
        if (who !== "operator") expect(await page.getByLabel("Organization").locator("option").first().textContent()).toContain(organization.name);
        if (width === 360) await screenshot(page, `phone-360-${who}-menu`);
        await toggle.click();

        const titles = await walk(page, who, width, width === 360 ? "phone-360" : null);
        expect(titles.length, `${who}'s screens`).toBeGreaterThan(1);
        expect(failures, "responses >= 400 while walking the screens").toEqual([]);
        await page.context().close();
      }, WALK_TIMEOUT);
    }
  }
});

describe("console at 360 px: dialogs opened from a row, and the keyboard", () => {
  it("owner: a Thing's dialog and a confirmation fit and their backdrops cover the viewport", async () => {
    const { page, failures } = await signedIn(emails.owner, { width: 360, height: PHONE_HEIGHT });
    await screenSettled(page, "Things");
    await checkDialog(page, "Thing Thermostat", page.getByRole("button", { name: "Thermostat", exact: true }), "phone-360-dialog-thing");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invitations", exact: true }).click();
    await screenSettled(page, "Invitations");
    await checkDialog(page, "Revoke invitation", page.getByRole("button", { name: /^Revoke the invitation of / }).first(), "phone-360-dialog-revoke-invitation");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("Tab reaches the navigation and the primary action; Enter opens its dialog with focus inside", async () => {
    const { page } = await signedIn(emails.owner, { width: 360, height: PHONE_HEIGHT });
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
    await page.getByRole("dialog", { name: "New Thing" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest("dialog") !== null), "focus moved into the dialog").toBe(true);
    await page.context().close();
  });
});

describe("console at desktop width, every role, 60-character names", () => {
  for (const who of WHO) {
    it(`${who}: every screen fits, a screenshot of each; nothing >= 400`, async () => {
      const { page, failures } = await signedIn(emails[who], DESKTOP);
      // No menu button at desktop width: the switcher and sign-out stand in the header.
      expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
      expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
      await walk(page, who, DESKTOP.width, "desktop");
      expect(failures).toEqual([]);
      await page.context().close();
    }, WALK_TIMEOUT);
  }
});

describe("the header's menu at phone width", () => {
  it("is a disclosure button: Tab reaches it, Enter opens it, Tab enters it, Escape closes it and focus goes back to it; Sign out works from it", async () => {
    const { page, failures } = await signedIn(emails.owner, { width: 320, height: PHONE_HEIGHT });
    await screenSettled(page, "Things");
    const toggle = page.getByRole("button", { name: "Menu" });
    const controls = await toggle.getAttribute("aria-controls");
    expect(controls).toBe("header-menu");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    const panel = page.locator(`#${controls}`);
    expect(await panel.isVisible()).toBe(false);

    const focused = () => page.evaluate(() => `${document.activeElement?.tagName.toLowerCase()} ${document.activeElement?.id || document.activeElement?.textContent?.trim()}`);
    for (let presses = 0; presses < 5 && (await focused()) !== "button Menu"; presses++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("button Menu");
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await panel.isVisible()).toBe(true);
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("select organization-switcher");
    expect(await seriousViolations(page), "menu open").toEqual([]);
    await page.keyboard.press("Escape");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await panel.isVisible()).toBe(false);
    expect(await focused()).toBe("button Menu");

    await page.keyboard.press("Enter");
    for (let presses = 0; presses < 5 && (await focused()) !== "button Sign out"; presses++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/signin");
    await expectNoSidewaysScroll(page, "sign-in at 320 px");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});

describe("the Bus screen's small things", () => {
  it("lists the account limits in the same order on every load, and a role without restriction reads \"any subject\"", async () => {
    const { page, failures } = await signedIn(emails.owner, DESKTOP);
    const limits = page.getByRole("table", { name: "Account limits" }).locator("tbody tr td:first-child");
    const orders: string[][] = [];
    for (let load = 0; load < 3; load++) {
      await page.goto("/bus");
      await screenSettled(page, "Bus");
      orders.push(await limits.allTextContents());
    }
    expect(orders[0].length).toBeGreaterThan(1);
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[2]).toEqual(orders[0]);

    // The seeded role "device" has no permission lists: NATS lets it use any subject.
    const roles = page.getByRole("region", { name: "Roles" });
    const device = roles.locator("tbody tr").filter({ has: page.getByRole("cell", { name: "device", exact: true }) });
    expect(await device.locator("td").allTextContents()).toEqual(["device", "any subject", "any subject", "", expect.any(String)]);
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
