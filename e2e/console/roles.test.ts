// The console in Debian's chromium against a real platform serving the built console (pb_public/):
// each role and a Platform Operator (with and without a membership) signs in and sees exactly its
// navigation; walking every screen it has records no response >= 400 and no serious or critical axe
// finding, with a screenshot of each; direct URLs to other screens say they are not available; a
// SuperUser is sent to /_/; a 401 returns to sign-in and back; the organization switcher writes
// users.current_organization; the operator's branding applies, a missing branding file falling back.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedResponses, screenSettled, screenshot, seriousViolations, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { SUPERUSER } from "../harness/platform";
import { PASSWORD, ROLES, createMember, createUser, unique } from "../harness/world";

const brandingDir = mkdtempSync(join(tmpdir(), "console-branding-"));
// theme.css and branding.json overridden; logo.svg absent, so the embedded one stands in.
writeFileSync(join(brandingDir, "theme.css"), ":root { --console-primary: #0b5394; }\n");
writeFileSync(join(brandingDir, "branding.json"), JSON.stringify({ productName: "Acme Fleet" }));

const { platform, world, ui } = useConsole({ PLATFORM_BRANDING_DIR: brandingDir });

type Who = (typeof ROLES)[number] | "operator" | "operator_member";

/** The navigation each identity must see, written out (not derived from the capability map under test). */
const NAVIGATION: Record<Who, string[]> = {
  owner: ["Visualizer", "Live", "Fleet health", "Things", "Locations", "Types", "Overlay", "Members", "Invitations", "Activity", "Bus", "Streams", "Settings"],
  admin: ["Visualizer", "Live", "Fleet health", "Things", "Locations", "Types", "Overlay", "Members", "Invitations", "Activity", "Bus", "Streams", "Settings"],
  member: ["Visualizer", "Live", "Fleet health", "Things", "Locations", "Types", "Overlay", "Activity", "Bus", "Settings"],
  viewer: ["Visualizer", "Live", "Fleet health", "Things", "Locations", "Types", "Overlay", "Activity", "Bus", "Settings"],
  dashboard: ["Visualizer", "Settings"],
  operator: ["Invitations", "Organizations", "Audit log", "Settings"],
  operator_member: ["Visualizer", "Live", "Fleet health", "Things", "Locations", "Types", "Overlay", "Invitations", "Activity", "Bus", "Organizations", "Audit log", "Settings"],
};
const LANDING: Record<Who, string> = {
  owner: "/things", admin: "/things", member: "/things", viewer: "/things", dashboard: "/visualizer",
  operator: "/organizations", operator_member: "/things",
};
/** Screens each identity may not open, reached by direct URL. */
const FORBIDDEN: Record<Who, string[]> = {
  owner: ["/organizations", "/audit"],
  admin: ["/audit"],
  member: ["/members", "/invitations", "/audit"],
  viewer: ["/members", "/organizations"],
  dashboard: ["/things", "/activity", "/members", "/bus"],
  operator: ["/things", "/members", "/visualizer", "/bus"],
  operator_member: ["/members"],
};

const emails = {} as Record<Who, string>;

beforeAll(async () => {
  for (const role of ROLES) emails[role] = world.users[role].email as string;
  emails.operator = world.users.operator.email as string;
  const operatorMember = await createMember(world.su, world.a.organization.id, "viewer");
  await world.su.collection("users").update(operatorMember.id, { is_operator: true });
  emails.operator_member = operatorMember.email as string;
  // Enough Things in Alpha for a second page of the list.
  for (let i = 0; i < 30; i++) {
    await world.su.collection("things").create({ organization: world.a.organization.id, name: `Probe ${i}`, code: `probe-${String(i).padStart(2, "0")}`, active: i % 3 !== 0, password: PASSWORD, passwordConfirm: PASSWORD });
  }
}, 120_000);

afterAll(async () => {
  rmSync(brandingDir, { recursive: true, force: true });
});

async function openSignedIn(email: string, password = PASSWORD): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url });
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/");
  await page.waitForURL(/\/signin/);
  await signInThroughForm(page, email, password);
  return { page, failures };
}

describe("console per role", () => {
  for (const who of Object.keys(NAVIGATION) as Who[]) {
    it(`${who}: lands on ${LANDING[who]}, sees exactly ${NAVIGATION[who].join(", ")}; every screen answers < 400, axe finds nothing serious`, async () => {
      const { page, failures } = await openSignedIn(emails[who]);
      await page.waitForURL((url) => url.pathname === LANDING[who]);
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link").first().waitFor();
      expect(await nav.getByRole("link").allTextContents()).toEqual(NAVIGATION[who]);

      for (const title of NAVIGATION[who]) {
        await nav.getByRole("link", { name: title, exact: true }).click();
        await screenSettled(page, title).catch((error: Error) => {
          throw new Error(`${title}: ${error.message}\n${failures.join("\n")}`);
        });
        expect(await seriousViolations(page), `${who} on ${title}`).toEqual([]);
        await screenshot(page, `${who}-${title.toLowerCase().replace(/\s+/g, "-")}`);
      }
      expect(failures, "responses >= 400 while walking the screens").toEqual([]);

      for (const path of FORBIDDEN[who]) {
        await page.goto(path);
        await screenSettled(page, "Not available");
      }
      await page.context().close();
    });
  }
});

describe("console behaviour", () => {
  it("the Things list pages, searches and sorts on real data without a response >= 400", async () => {
    const { page, failures } = await openSignedIn(emails.owner);
    await page.waitForURL("**/things");
    await screenSettled(page, "Things");
    const pager = page.getByRole("navigation", { name: "Pages" });
    await expect.poll(() => pager.textContent()).toContain("Page 1 of 2 · 31 Things");
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => pager.textContent()).toContain("Page 2 of 2");
    await page.getByLabel("Order").selectOption({ label: "Descending" });
    await expect.poll(() => page.locator("tbody tr").first().textContent()).toContain("probe-29");
    for (const sort of ["Name", "Created"]) {
      await page.getByLabel("Sort by").selectOption({ label: sort });
      await page.locator('main[aria-busy="false"]').waitFor();
    }
    await page.getByLabel("Search").fill("Thermostat");
    await expect.poll(() => page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Thermostat")]);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("a SuperUser signing in is sent to the admin UI at /_/", async () => {
    const { page } = await openSignedIn(SUPERUSER.email, SUPERUSER.password);
    await page.waitForURL((url) => url.pathname === "/_/");
    await page.context().close();
  });

  it("wrong credentials are refused in words", async () => {
    const { page } = await openSignedIn(`${unique("nobody")}@example.test`);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.");
    await page.context().close();
  });

  it("a 401 sends to sign-in and, signed in again, back to the same screen", async () => {
    const user = await createMember(world.su, world.a.organization.id, "member");
    const { page } = await openSignedIn(user.email as string);
    await page.waitForURL("**/things");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Locations" }).click();
    await screenSettled(page, "Locations");
    // A new password changes the token key: the console's token is refused from now on.
    const fresh = "another-horse-battery";
    await world.su.collection("users").update(user.id, { password: fresh, passwordConfirm: fresh });
    await page.reload();
    await page.waitForURL((url) => url.pathname === "/signin" && url.searchParams.get("next") === "/locations");
    await signInThroughForm(page, user.email as string, fresh);
    await page.waitForURL((url) => url.pathname === "/locations");
    await screenSettled(page, "Locations");
    await page.context().close();
  });

  it("the organization switcher writes users.current_organization, only with organizations of the user, and the navigation follows the role", async () => {
    const user: RecordModel = await createMember(world.su, world.a.organization.id, "viewer");
    await world.su.collection("memberships").create({ user: user.id, organization: world.b.organization.id, role: "owner" });
    const { page, failures } = await openSignedIn(user.email as string);
    await page.waitForURL("**/things");
    const switcher = page.getByLabel("Organization");
    expect(await switcher.locator("option").allTextContents()).toEqual([
      `${world.a.organization.name} (viewer)`, `${world.b.organization.name} (owner)`,
    ]);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link").first().waitFor();
    expect(await nav.getByRole("link", { name: "Members" }).count()).toBe(0);
    await switcher.selectOption(world.b.organization.id);
    await nav.getByRole("link", { name: "Members" }).waitFor();
    expect((await world.su.collection("users").getOne(user.id)).current_organization).toBe(world.b.organization.id);
    // The list now shows Beta's Thing only.
    await screenSettled(page, "Things");
    await expect.poll(() => page.getByRole("navigation", { name: "Pages" }).textContent()).toContain("Page 1 of 1 · 1 Things");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("applies the operator's theme and texts before the console renders; the missing logo falls back to the embedded one", async () => {
    const context = await ui.browser.newContext({ baseURL: platform.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.title()).toBe("Acme Fleet");
    expect(await page.locator(".brand").textContent()).toContain("Acme Fleet");
    const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--console-primary").trim());
    expect(primary).toBe("#0b5394");
    const logoWidth = await page.locator(".brand img").evaluate((img) => (img as HTMLImageElement).naturalWidth);
    expect(logoWidth).toBeGreaterThan(0);
    await context.close();
  });

  it("a user with neither membership nor operator flag sees only settings", async () => {
    const outsider = await createUser(world.su, `${unique("lonely")}@example.test`);
    const { page, failures } = await openSignedIn(outsider.email as string);
    await page.waitForURL("**/settings");
    await screenSettled(page, "Settings");
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toEqual(["Settings"]);
    await page.goto("/nope");
    await screenSettled(page, "Page not found");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
