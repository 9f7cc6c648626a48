// The Things screens in chromium against a real platform: the create wizard (POST /api/org/things)
// shows the e-mail, the password once and the enrollment command, and that password signs the Thing in
// through the API; a member is offered no identity but `none`; a suspended organization's `auto` is
// explained; the owner deactivates, reactivates, resets the password of and deletes a Thing (each
// confirmed) while a viewer has none of these actions; Escape closes a dialog and focus returns to its
// opener. Every page records no response >= 400 and axe finds nothing serious or critical on the screen
// and its dialogs.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { failedResponses, screenshot, signInThroughForm, screenSettled } from "../harness/browser";
import { useConsole, expectNoSeriousViolations } from "../harness/console";
import { PASSWORD, client, createMember, createOrganization, unique } from "../harness/world";

const { platform, world, ui } = useConsole();

async function openThings(email: string): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: platform.url });
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await signInThroughForm(page, email, PASSWORD);
  await page.waitForURL("**/things");
  await screenSettled(page, "Things");
  return { page, failures };
}

function secret(dialog: Locator, label: string): Locator {
  return dialog.locator(`.secret:has(.label:text-is("${label}")) code`);
}

/** Opens a Thing's detail from the list (searched by its code). */
async function openDetail(page: Page, code: string, name: string): Promise<Locator> {
  await page.getByLabel("Search").fill(code);
  await page.getByRole("button", { name, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Thing ${name}` });
  await dialog.getByText(code, { exact: true }).waitFor();
  return dialog;
}

async function confirm(page: Page, title: string, label: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await expectNoSeriousViolations(page, `${title} confirmation`);
  await dialog.getByRole("button", { name: label, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

describe("console Things", () => {
  it("owner: the wizard creates a Thing, shows its e-mail, password and enrollment command once, and the password signs the Thing in", async () => {
    const { page, failures } = await openThings(world.users.owner.email as string);
    await expectNoSeriousViolations(page, "Things");
    await page.getByRole("button", { name: "New Thing" }).click();
    const wizard = page.getByRole("dialog", { name: "New Thing" });
    const name = unique("Wizard thing");
    await wizard.getByLabel("Name").fill(name);
    await wizard.getByLabel("Type").selectOption({ label: "Sensor" });
    await wizard.getByLabel("Location").selectOption({ label: "HQ" });
    await expectNoSeriousViolations(page, "wizard details");
    await wizard.getByRole("button", { name: "Next" }).click();
    expect(await wizard.getByLabel("Bus identity").locator("option").allTextContents()).toEqual(["None", "Create a new one", "Link an existing one"]);
    await wizard.getByLabel("Bus identity").selectOption({ label: "Link an existing one" });
    await wizard.getByLabel("Bus user").selectOption({ label: "device-user" });
    await expectNoSeriousViolations(page, "wizard identities");
    await wizard.getByRole("button", { name: "Create Thing" }).click();

    const done = page.getByRole("dialog", { name: "Thing created" });
    const email = (await secret(done, "E-mail").textContent()) ?? "";
    const password = (await secret(done, "Password").textContent()) ?? "";
    expect(email).toMatch(new RegExp(`@${world.a.organization.code}\\.thing\\.local$`));
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(await secret(done, "Enrollment command").textContent()).toBe(
      `printf '%s\\n' "$PASSWORD" | agent enroll --platform ${platform.url} --email ${email}`,
    );
    await done.getByRole("button", { name: "Copy password" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await expectNoSeriousViolations(page, "wizard result");
    await screenshot(page, "owner-thing-created");

    // The Thing signs in through the API with the shown password; its record is what the wizard asked for.
    const thing = client(platform.url);
    const auth = await thing.collection("things").authWithPassword(email, password);
    expect(auth.record.name).toBe(name);
    const stored = await world.su.collection("things").getOne(auth.record.id);
    expect([stored.type, stored.location, stored.bus_user, stored.active]).toEqual([world.a.thing_types.id, world.a.locations.id, world.a.bus_users.id, true]);

    // Closed, the password is gone from the page; the list shows the new Thing.
    await done.getByRole("button", { name: "Done" }).click();
    expect(await page.getByText(password).count()).toBe(0);
    await openDetail(page, auth.record.code as string, name);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("member: the wizard offers only none for bus and overlay, and creates an inventory-only Thing", async () => {
    const member = await createMember(world.su, world.a.organization.id, "member");
    const { page, failures } = await openThings(member.email as string);
    await page.getByRole("button", { name: "New Thing" }).click();
    const wizard = page.getByRole("dialog", { name: "New Thing" });
    await wizard.getByLabel("Name").fill(unique("Member thing"));
    await wizard.getByRole("button", { name: "Next" }).click();
    expect(await wizard.getByLabel("Bus identity").locator("option").allTextContents()).toEqual(["None"]);
    expect(await wizard.getByLabel("Overlay host").locator("option").allTextContents()).toEqual(["None"]);
    await expectNoSeriousViolations(page, "member wizard identities");
    await wizard.getByRole("button", { name: "Create Thing" }).click();
    await secret(page.getByRole("dialog", { name: "Thing created" }), "Password").waitFor();
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner of a suspended organization: bus auto is not offered and the reason is given in words", async () => {
    const organization = await createOrganization(world.su, "Dormant");
    const owner = await createMember(world.su, organization.id, "owner");
    await world.su.collection("organizations").update(organization.id, { active: false });
    const { page, failures } = await openThings(owner.email as string);
    await page.getByRole("button", { name: "New Thing" }).click();
    const wizard = page.getByRole("dialog", { name: "New Thing" });
    await wizard.getByLabel("Name").fill("Dormant thing");
    await wizard.getByRole("button", { name: "Next" }).click();
    expect(await wizard.getByLabel("Bus identity").locator("option", { hasText: "Create a new one" }).isDisabled()).toBe(true);
    await wizard.getByText("This organization is suspended, so it has no active bus account").waitFor();
    await expectNoSeriousViolations(page, "suspended wizard");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner: deactivates, reactivates, resets the password of and deletes a Thing, each confirmed", async () => {
    const code = unique("lifecycle").toLowerCase();
    const created = await world.su.collection("things").create({ organization: world.a.organization.id, name: "Lifecycle", code, active: true, password: PASSWORD, passwordConfirm: PASSWORD });
    const { page, failures } = await openThings(world.users.owner.email as string);
    const detail = await openDetail(page, code, "Lifecycle");
    await expectNoSeriousViolations(page, "Thing detail");
    await screenshot(page, "owner-thing-detail");

    await detail.getByRole("button", { name: "Deactivate" }).click();
    await confirm(page, "Deactivate Thing", "Deactivate");
    await detail.getByText("Inactive", { exact: true }).waitFor();
    expect((await world.su.collection("things").getOne(created.id)).active).toBe(false);

    await detail.getByRole("button", { name: "Reactivate" }).click();
    await confirm(page, "Reactivate Thing", "Reactivate");
    await detail.getByText("Active", { exact: true }).waitFor();
    expect((await world.su.collection("things").getOne(created.id)).active).toBe(true);

    await detail.getByRole("button", { name: "Reset password" }).click();
    await confirm(page, "Reset password", "Reset password");
    const password = (await secret(detail, "Password").textContent()) ?? "";
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    const thing = client(platform.url);
    await thing.collection("things").authWithPassword(created.email as string, password);

    await detail.getByRole("button", { name: "Edit" }).click();
    await detail.getByLabel("Name").fill("Lifecycle renamed");
    await detail.getByLabel("Location").selectOption({ label: "HQ" });
    await detail.getByRole("button", { name: "Save" }).click();
    await page.getByRole("dialog", { name: "Thing Lifecycle renamed" }).waitFor();
    expect((await world.su.collection("things").getOne(created.id)).location).toBe(world.a.locations.id);

    await page.getByRole("dialog", { name: "Thing Lifecycle renamed" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete Thing" }).waitFor();
    await screenshot(page, "owner-thing-delete");
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 360, height: 740 });
    await screenshot(page, "360-thing-delete");
    if (desktop) await page.setViewportSize(desktop);
    await confirm(page, "Delete Thing", "Delete");
    await expect.poll(() => world.su.collection("things").getList(1, 1, { filter: `id = "${created.id}"` }).then((r) => r.totalItems)).toBe(0);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("viewer: the detail reads, with no create, edit, deactivate, password or delete action", async () => {
    const { page, failures } = await openThings(world.users.viewer.email as string);
    expect(await page.getByRole("button", { name: "New Thing" }).count()).toBe(0);
    const detail = await openDetail(page, world.a.things.code as string, "Thermostat");
    expect(await detail.getByRole("button").allTextContents()).toEqual(["Close"]);
    await expectNoSeriousViolations(page, "viewer Thing detail");
    await screenshot(page, "viewer-thing-detail");
    // Keyboard: Escape closes the dialog and focus returns to the name that opened it.
    await page.keyboard.press("Escape");
    await detail.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Thermostat");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
