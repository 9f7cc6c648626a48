// What a Platform Operator gets in the console, in chromium against a real platform: an organization
// created, edited, suspended (a tenant of it sees why the bus cannot issue identities), reactivated and
// deleted through the Organizations screen, each confirmed where it destroys, and the API shows each
// state; the audit log lists the operator's own actions, filtered on indexed fields; an invitation into an
// organization the operator is not a member of; an owner has neither screen, and their URLs say "Not
// available". No response >= 400; axe finds nothing serious or critical.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SUSPENDED_BUS_AUTO } from "../../console/src/things";
import { failedResponses, screenSettled, screenshot, seriousViolations, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { PASSWORD, createMember, unique } from "../harness/world";

const { platform, world, ui } = useConsole();

async function signedIn(email: string, viewport?: { width: number; height: number }): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await signInThroughForm(page, email, PASSWORD);
  await page.waitForURL((url) => url.pathname !== "/signin");
  return { page, failures };
}

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: title, exact: true }).click();
  await screenSettled(page, title);
}

async function checked(page: Page, name: string): Promise<void> {
  await page.locator('main[aria-busy="false"]').waitFor();
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshot(page, `operator-${name}`);
}

const organizationByName = async (name: string) => (await world.su.collection("organizations").getList(1, 2, { filter: world.su.filter("name = {:name}", { name }) })).items;

describe("Platform Operator", () => {
  let createdId = "";

  it("creates, edits, suspends, reactivates and deletes an organization; a tenant of it sees the suspension explained", async () => {
    const { page, failures } = await signedIn(world.users.operator.email as string);
    await page.waitForURL("**/organizations");
    await screenSettled(page, "Organizations");
    await checked(page, "organizations");

    // Create: the code follows the name.
    const name = unique("Gamma");
    await page.getByRole("button", { name: "New organization" }).click();
    const form = page.getByRole("dialog", { name: "New organization" });
    await form.getByLabel("Name").fill(name);
    expect(await form.getByLabel("Code").inputValue()).toBe(name.toLowerCase());
    await checked(page, "organizations-create");
    await form.getByRole("button", { name: "Create organization" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe(`Created ${name}.`);
    const [created] = await organizationByName(name);
    expect(created).toMatchObject({ code: name.toLowerCase(), active: true, managed: false });
    createdId = created.id;

    // Edit: the name changes, the code is shown read-only.
    const renamed = `${name} renamed`;
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit organization" });
    expect(await edit.getByLabel("Code").getAttribute("readonly")).not.toBeNull();
    await edit.getByLabel("Name").fill(renamed);
    await checked(page, "organizations-edit");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe(`Saved ${renamed}.`);
    expect((await world.su.collection("organizations").getOne(createdId)).name).toBe(renamed);

    // Suspend: cancelled, nothing changes; confirmed, the API shows it suspended.
    await page.getByRole("button", { name: `Suspend ${renamed}` }).click();
    const suspend = page.getByRole("dialog", { name: "Suspend organization" });
    const words = (await suspend.textContent()) ?? "";
    for (const consequence of ["disconnected at once", "bus users, Things and overlay", "still sign in to the console", "Reactivating restores"]) {
      expect(words).toContain(consequence);
    }
    await checked(page, "organizations-suspend-confirm");
    await suspend.getByRole("button", { name: "Cancel" }).click();
    expect((await world.su.collection("organizations").getOne(createdId)).active).toBe(true);
    await page.getByRole("button", { name: `Suspend ${renamed}` }).click();
    await suspend.getByRole("button", { name: "Suspend" }).click();
    await page.getByRole("button", { name: `Reactivate ${renamed}` }).waitFor();
    expect((await world.su.collection("organizations").getOne(createdId)).active).toBe(false);
    expect((await world.su.collection("bus_accounts").getFirstListItem(`organization = "${createdId}"`)).active).toBe(false);
    await checked(page, "organizations-suspended");

    // A tenant of the suspended organization is told, where it would create a bus identity, why it cannot.
    const tenant = await createMember(world.su, createdId, "owner");
    const { page: owner, failures: ownerFailures } = await signedIn(tenant.email as string);
    await screenSettled(owner, "Things");
    await owner.getByRole("button", { name: "New Thing" }).click();
    const wizard = owner.getByRole("dialog", { name: "New Thing" });
    await wizard.getByLabel("Name").fill("Probe");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByText(SUSPENDED_BUS_AUTO).waitFor();
    expect(await wizard.getByLabel("Bus identity").locator("option", { hasText: "Create a new one" }).isDisabled()).toBe(true);
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, "tenant-of-suspended-wizard");
    expect(ownerFailures).toEqual([]);
    await owner.context().close();

    // Reactivate (not destructive: no confirmation).
    await page.getByRole("button", { name: `Reactivate ${renamed}` }).click();
    await page.getByRole("button", { name: `Suspend ${renamed}` }).waitFor();
    expect((await world.su.collection("organizations").getOne(createdId)).active).toBe(true);

    // Delete: the cascade said in words, confirmed; gone from the API with its memberships.
    await page.getByRole("button", { name: `Delete ${renamed}` }).click();
    const remove = page.getByRole("dialog", { name: "Delete organization" });
    const cascade = (await remove.textContent()) ?? "";
    for (const consequence of ["cannot be undone", "memberships and pending invitations", "Things, Locations", "bus account", "overlay CA", "suspended first"]) {
      expect(cascade).toContain(consequence);
    }
    await checked(page, "organizations-delete-confirm");
    await remove.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByRole("button", { name: `Delete ${renamed}` }).count()).toBe(0);
    expect(await organizationByName(renamed)).toEqual([]);
    expect((await world.su.collection("memberships").getList(1, 1, { filter: `user = "${tenant.id}"` })).totalItems).toBe(0);
    await checked(page, "organizations-deleted");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("reads the audit log newest first and finds its own actions, filtered by actor, action and collection", async () => {
    expect(createdId, "the organization test ran first").not.toBe("");
    const { page, failures } = await signedIn(world.users.operator.email as string);
    await open(page, "Audit log");
    await checked(page, "audit");

    await page.getByRole("button", { name: "Only mine" }).click();
    await page.locator('main[aria-busy="false"]').waitFor();
    const rows = page.locator("tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThan(3);
    const texts = await rows.allTextContents();
    // Its own: every row is by "you"; the newest is this sign-in; the organization's life is there.
    for (const text of texts) expect(text).toContain("you");
    expect(texts[0]).toContain("auth");
    const ofOrganization = texts.filter((t) => t.includes(createdId));
    expect(ofOrganization.map((t) => /create|update|delete/.exec(t)?.[0])).toEqual(["delete", "update", "update", "update", "update", "create"]);
    await checked(page, "audit-mine");

    // Narrowed to deletions of organizations: the one row, with the values kept for an allowlisted collection.
    await page.getByLabel("Action").selectOption("delete");
    await page.getByLabel("Collection").fill("organizations");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining(createdId)]);
    await rows.first().locator("summary").click();
    expect(await rows.first().textContent()).toContain("renamed");
    await checked(page, "audit-filtered");

    await page.getByRole("button", { name: "Clear" }).click();
    await expect.poll(() => page.getByLabel("Actor").inputValue()).toBe("");
    await page.locator('main[aria-busy="false"]').waitFor();
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("without a membership, invites into an organization it chooses", async () => {
    const { page, failures } = await signedIn(world.users.operator.email as string);
    await open(page, "Invitations");
    const email = `${unique("invitee")}@example.test`;
    await page.getByLabel("Into organization").selectOption({ label: world.b.organization.name });
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = await page.getByLabel("Link of the new invitation").inputValue();
    const invite = await world.su.collection("invites").getFirstListItem(world.su.filter("email = {:email}", { email }));
    expect(invite).toMatchObject({ organization: world.b.organization.id, role: "admin" });
    expect(link).toBe(`${platform.url}/accept?token=${invite.token}`);
    await checked(page, "invitations");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("who owns an organization, as bootstrap's operator owns the operator organization, invites into any other too", async () => {
    const home = await world.su.collection("organizations").create({ name: unique("Operators"), code: unique("ops"), active: true });
    const operator = await createMember(world.su, home.id, "owner");
    await world.su.collection("users").update(operator.id, { is_operator: true });
    const { page, failures } = await signedIn(operator.email as string);
    await open(page, "Invitations");
    const into = page.getByLabel("Into organization");
    await expect.poll(() => into.locator("option:checked").textContent()).toBe(home.name);
    const email = `${unique("tenant-admin")}@example.test`;
    await into.selectOption({ label: world.b.organization.name });
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Create invitation" }).click();
    await page.getByLabel("Link of the new invitation").waitFor();
    const invite = await world.su.collection("invites").getFirstListItem(world.su.filter("email = {:email}", { email }));
    expect(invite).toMatchObject({ organization: world.b.organization.id, role: "admin" });
    // The table stays the active organization's, which it manages.
    await page.getByText("No pending invitations.").waitFor();
    await checked(page, "owner-invitations");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("at 360 px wide, Organizations and the audit log fit the page (their tables scroll inside)", async () => {
    const { page, failures } = await signedIn(world.users.operator.email as string, { width: 360, height: 740 });
    for (const [title, path] of [["Organizations", "/organizations"], ["Audit log", "/audit"]]) {
      await page.goto(path);
      await screenSettled(page, title);
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth), title).toBeLessThanOrEqual(360);
      await screenshot(page, `operator-360-${title.toLowerCase().replace(/\s+/g, "-")}`);
    }
    expect(failures).toEqual([]);
    await page.context().close();
  });
});

describe("an owner without the operator flag", () => {
  it("sees neither Organizations nor the audit log, and their URLs land on Not available", async () => {
    const { page, failures } = await signedIn(world.users.owner.email as string);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link").first().waitFor();
    const links = await nav.getByRole("link").allTextContents();
    expect(links).not.toContain("Organizations");
    expect(links).not.toContain("Audit log");
    for (const path of ["/organizations", "/audit"]) {
      await page.goto(path);
      await screenSettled(page, "Not available");
    }
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
