// The Locations and Types screens in chromium against a real platform: an owner creates, edits and
// deletes a Location Type, a Location, a Thing Type with its prefix and an Operation through the forms
// (each delete confirmed), and the API holds exactly what the screen showed; the forms offer only the
// active organization's records as relations; a member creates and edits Locations but has no delete and
// no type management; a viewer reads every list without an action; a dashboard gets neither screen; a
// refusal shows the server's message; at 360 px the lists do not widen the page. Every page records no
// response >= 400 (but the one refusal provoked on purpose) and axe finds nothing serious or critical on
// the lists and dialogs.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { failedResponses, screenshot, signInThroughForm, screenSettled } from "../harness/browser";
import { useConsole, expectNoSeriousViolations } from "../harness/console";
import { PASSWORD, createMember, unique } from "../harness/world";

const { platform, world, ui } = useConsole();

async function signIn(email: string): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url });
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await signInThroughForm(page, email, PASSWORD);
  await page.waitForURL("**/things");
  await screenSettled(page, "Things");
  return { page, failures };
}

async function openScreen(page: Page, title: "Locations" | "Types"): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: title, exact: true }).click();
  await screenSettled(page, title);
}

/** The list of one collection on the screen (a landmark named after it). */
function list(page: Page, name: string): Locator {
  return page.getByRole("region", { name, exact: true });
}

function row(region: Locator, name: string): Locator {
  return region.locator("tbody tr").filter({ has: region.page().getByRole("cell", { name, exact: true }) });
}

/** The values a select offers, but its blank first option. */
async function offered(select: Locator): Promise<string[]> {
  const values = await select.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  return values.filter((v) => v !== "").sort();
}

/** Fills the open form dialog titled `title` and submits it with `submit`; waits until it closed and the list settled. */
async function submitForm(page: Page, title: string, fill: (dialog: Locator) => Promise<void>, submit: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await fill(dialog);
  await expectNoSeriousViolations(page, `${title} dialog`);
  await dialog.getByRole("button", { name: submit, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.locator('main[aria-busy="false"]').waitFor();
}

async function confirmDelete(page: Page, region: Locator, name: string, title: string): Promise<void> {
  await row(region, name).getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await expectNoSeriousViolations(page, `${title} confirmation`);
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
  await row(region, name).waitFor({ state: "detached" });
}

const ACTION_BUTTON = /^(New |Edit|Delete)/;

describe("console Locations and Types", () => {
  it("owner: creates, edits and deletes a Location Type, a Thing Type with prefix, an Operation and a Location; the API holds what the screen shows", async () => {
    const { page, failures } = await signIn(world.users.owner.email as string);
    const alpha = world.a.organization.id;
    await openScreen(page, "Types");
    await expectNoSeriousViolations(page, "Types");

    // Location Type: create, then rename.
    const locationTypes = list(page, "Location Types");
    const roomType = unique("Room");
    await locationTypes.getByRole("button", { name: "New Location Type" }).click();
    await submitForm(page, "New Location Type", (d) => d.getByLabel("Name").fill(roomType), "Create Location Type");
    await row(locationTypes, roomType).waitFor();
    const floorType = unique("Floor");
    await row(locationTypes, roomType).getByRole("button", { name: `Edit ${roomType}` }).click();
    await submitForm(page, "Edit Location Type", async (d) => {
      await d.getByLabel("Name").fill(floorType);
      await d.getByLabel("Description").fill("One storey");
    }, "Save");
    await row(locationTypes, floorType).getByRole("cell", { name: "One storey" }).waitFor();
    const storedLocationType = await world.su.collection("location_types").getFirstListItem(world.su.filter("name = {:n}", { n: floorType }));
    expect([storedLocationType.organization, storedLocationType.description]).toEqual([alpha, "One storey"]);

    // Thing Type with its prefix: create, then change the prefix.
    const thingTypes = list(page, "Thing Types");
    const pumpType = unique("Pump");
    await thingTypes.getByRole("button", { name: "New Thing Type" }).click();
    await submitForm(page, "New Thing Type", async (d) => {
      await d.getByLabel("Name").fill(pumpType);
      await d.getByLabel("Prefix").fill("PMP");
    }, "Create Thing Type");
    await row(thingTypes, pumpType).getByRole("cell", { name: "PMP", exact: true }).waitFor();
    await row(thingTypes, pumpType).getByRole("button", { name: `Edit ${pumpType}` }).click();
    await submitForm(page, "Edit Thing Type", (d) => d.getByLabel("Prefix").fill("PUMP2"), "Save");
    await row(thingTypes, pumpType).getByRole("cell", { name: "PUMP2", exact: true }).waitFor();
    const storedThingType = await world.su.collection("thing_types").getFirstListItem(world.su.filter("name = {:n}", { n: pumpType }));
    expect([storedThingType.organization, storedThingType.prefix]).toEqual([alpha, "PUMP2"]);

    // Operation of the new Thing Type: the form offers Alpha's Thing Types only (Beta has a "Sensor" too).
    const operations = list(page, "Thing Type Operations");
    await operations.getByRole("button", { name: "New Operation" }).click();
    const operationForm = page.getByRole("dialog", { name: "New Operation" });
    const alphaThingTypes = (await world.su.collection("thing_types").getFullList({ filter: world.su.filter("organization = {:o}", { o: alpha }) })).map((r) => r.id).sort();
    expect(await offered(operationForm.getByLabel("Thing Type"))).toEqual(alphaThingTypes);
    const flush = unique("flush");
    await submitForm(page, "New Operation", async (d) => {
      await d.getByLabel("Name").fill(flush);
      await d.getByLabel("Thing Type").selectOption({ label: pumpType });
    }, "Create Operation");
    await row(operations, flush).getByRole("cell", { name: pumpType, exact: true }).waitFor();
    await row(operations, flush).getByRole("button", { name: `Edit ${flush}` }).click();
    await submitForm(page, "Edit Operation", (d) => d.getByLabel("Description").fill("Flush the line"), "Save");
    await row(operations, flush).getByRole("cell", { name: "Flush the line" }).waitFor();
    const storedOperation = await world.su.collection("thing_type_operations").getFirstListItem(world.su.filter("name = {:n}", { n: flush }));
    expect([storedOperation.organization, storedOperation.thing_type, storedOperation.description]).toEqual([alpha, storedThingType.id, "Flush the line"]);
    await expectNoSeriousViolations(page, "Types with new rows");
    await screenshot(page, "owner-types-managed");

    // Location of the new type inside HQ: type and parent choices are Alpha's rows only.
    await openScreen(page, "Locations");
    const locations = list(page, "Locations");
    await locations.getByRole("button", { name: "New Location" }).click();
    const locationForm = page.getByRole("dialog", { name: "New Location" });
    const alphaIds = async (collection: string) => (await world.su.collection(collection).getFullList({ filter: world.su.filter("organization = {:o}", { o: alpha }) })).map((r) => r.id).sort();
    expect(await offered(locationForm.getByLabel("Location Type"))).toEqual(await alphaIds("location_types"));
    expect(await offered(locationForm.getByLabel("Parent"))).toEqual(await alphaIds("locations"));
    const lab = unique("Lab");
    await submitForm(page, "New Location", async (d) => {
      await d.getByLabel("Name").fill(lab);
      await d.getByLabel("Code").fill("L-1");
      await d.getByLabel("Location Type").selectOption({ label: floorType });
      await d.getByLabel("Parent").selectOption({ label: "HQ" });
    }, "Create Location");
    await row(locations, lab).getByRole("cell", { name: floorType, exact: true }).waitFor();
    await row(locations, lab).getByRole("button", { name: `Edit ${lab}` }).click();
    const editForm = page.getByRole("dialog", { name: "Edit Location" });
    // A Location is never offered as its own parent.
    const stored = await world.su.collection("locations").getFirstListItem(world.su.filter("name = {:n}", { n: lab }));
    expect(await offered(editForm.getByLabel("Parent"))).not.toContain(stored.id);
    await submitForm(page, "Edit Location", (d) => d.getByLabel("Code").fill("L-2"), "Save");
    await row(locations, lab).getByRole("cell", { name: "L-2", exact: true }).waitFor();
    const edited = await world.su.collection("locations").getOne(stored.id);
    expect([edited.organization, edited.code, edited.type, edited.parent]).toEqual([alpha, "L-2", storedLocationType.id, world.a.locations.id]);
    await expectNoSeriousViolations(page, "Locations");
    await screenshot(page, "owner-locations-managed");

    // Deletes, each confirmed; the records are gone from the API.
    await confirmDelete(page, locations, lab, "Delete Location");
    await openScreen(page, "Types");
    await confirmDelete(page, list(page, "Thing Type Operations"), flush, "Delete Operation");
    await confirmDelete(page, list(page, "Thing Types"), pumpType, "Delete Thing Type");
    await confirmDelete(page, list(page, "Location Types"), floorType, "Delete Location Type");
    for (const [collection, id] of [["locations", stored.id], ["thing_type_operations", storedOperation.id], ["thing_types", storedThingType.id], ["location_types", storedLocationType.id]]) {
      await expect(world.su.collection(collection).getOne(id), `${collection} ${id}`).rejects.toMatchObject({ status: 404 });
    }
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner: a save the server refuses shows its message in words", async () => {
    const doomed = await world.su.collection("location_types").create({ organization: world.a.organization.id, name: unique("Doomed") });
    const { page, failures } = await signIn(world.users.owner.email as string);
    await openScreen(page, "Types");
    const locationTypes = list(page, "Location Types");
    await row(locationTypes, doomed.name).getByRole("button", { name: `Edit ${doomed.name}` }).click();
    await world.su.collection("location_types").delete(doomed.id);
    const dialog = page.getByRole("dialog", { name: "Edit Location Type" });
    await dialog.getByLabel("Name").fill("Too late");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toBe("The requested resource wasn't found.");
    await expectNoSeriousViolations(page, "refused edit");
    await screenshot(page, "owner-types-refused");
    expect(failures).toEqual([expect.stringMatching(new RegExp(`^404 PATCH .*/api/collections/location_types/records/${doomed.id}`))]);
    await page.context().close();
  });

  it("member: creates and edits a Location, deletes none, and manages no type", async () => {
    const member = await createMember(world.su, world.a.organization.id, "member");
    const { page, failures } = await signIn(member.email as string);
    await openScreen(page, "Locations");
    const locations = list(page, "Locations");
    const shed = unique("Shed");
    await locations.getByRole("button", { name: "New Location" }).click();
    await submitForm(page, "New Location", async (d) => {
      await d.getByLabel("Name").fill(shed);
      await d.getByLabel("Location Type").selectOption({ label: "Building" });
    }, "Create Location");
    await row(locations, shed).getByRole("button", { name: `Edit ${shed}` }).click();
    await submitForm(page, "Edit Location", (d) => d.getByLabel("Code").fill("S-9"), "Save");
    await row(locations, shed).getByRole("cell", { name: "S-9", exact: true }).waitFor();
    const stored = await world.su.collection("locations").getFirstListItem(world.su.filter("name = {:n}", { n: shed }));
    expect([stored.organization, stored.code, stored.type]).toEqual([world.a.organization.id, "S-9", world.a.location_types.id]);
    expect(await locations.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    await screenshot(page, "member-locations");

    await openScreen(page, "Types");
    await row(list(page, "Thing Types"), "Sensor").waitFor();
    expect(await page.getByRole("main").getByRole("button", { name: ACTION_BUTTON }).count()).toBe(0);
    await expectNoSeriousViolations(page, "member Types");

    // At phone width the list with its actions and the form fit; Escape closes the form.
    await page.setViewportSize({ width: 360, height: 740 });
    await openScreen(page, "Locations");
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth), "Locations at 360 px").toBeLessThanOrEqual(360);
    await locations.getByRole("button", { name: "New Location" }).click();
    const form = page.getByRole("dialog", { name: "New Location" });
    expect((await form.boundingBox())?.width).toBeLessThanOrEqual(360);
    await screenshot(page, "member-location-form-360");
    await page.keyboard.press("Escape");
    await form.waitFor({ state: "hidden" });
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("dashboard: Locations and Types are not in its navigation, and their URLs say they are not available", async () => {
    const context = await ui.browser.newContext({ baseURL: platform.url });
    const page = await context.newPage();
    const failures = failedResponses(page);
    await page.goto("/signin");
    await signInThroughForm(page, world.users.dashboard.email as string, PASSWORD);
    await page.waitForURL("**/visualizer");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link").first().waitFor();
    expect(await nav.getByRole("link", { name: /^(Locations|Types)$/ }).count()).toBe(0);
    for (const path of ["/locations", "/types"]) {
      await page.goto(path);
      await screenSettled(page, "Not available");
    }
    expect(failures).toEqual([]);
    await context.close();
  });

  it("viewer: reads Locations and every type list without an action", async () => {
    const { page, failures } = await signIn(world.users.viewer.email as string);
    await openScreen(page, "Locations");
    await row(list(page, "Locations"), "HQ").getByRole("cell", { name: "Building", exact: true }).waitFor();
    await list(page, "Locations").getByLabel("Sort by").selectOption({ label: "Code, Z to A" });
    await page.locator('main[aria-busy="false"]').waitFor();
    expect(await page.getByRole("main").getByRole("button", { name: ACTION_BUTTON }).count()).toBe(0);
    expect(await page.getByRole("columnheader", { name: "Actions" }).count()).toBe(0);
    await expectNoSeriousViolations(page, "viewer Locations");
    await screenshot(page, "viewer-locations");

    await openScreen(page, "Types");
    await row(list(page, "Thing Types"), "Sensor").getByRole("cell", { name: "SENS", exact: true }).waitFor();
    await row(list(page, "Location Types"), "Building").waitFor();
    await row(list(page, "Thing Type Operations"), "reboot").getByRole("cell", { name: "Sensor", exact: true }).waitFor();
    // Every sort each list offers is a field its collection has: none answers 400 (checked with failures below).
    for (const name of ["Thing Types", "Location Types", "Thing Type Operations"]) {
      const sort = list(page, name).getByLabel("Sort by");
      for (const value of await sort.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))) {
        await sort.selectOption(value);
        await page.locator('main[aria-busy="false"]').waitFor();
      }
    }
    expect(await page.getByRole("main").getByRole("button", { name: ACTION_BUTTON }).count()).toBe(0);
    await expectNoSeriousViolations(page, "viewer Types");
    await screenshot(page, "viewer-types");

    // At phone width the page itself does not scroll sideways (wide tables scroll inside it).
    await page.setViewportSize({ width: 360, height: 740 });
    for (const title of ["Types", "Locations"] as const) {
      await openScreen(page, title);
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth), `${title} at 360 px`).toBeLessThanOrEqual(360);
      await screenshot(page, `viewer-${title.toLowerCase()}-360`);
    }
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
