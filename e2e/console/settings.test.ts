// The Settings and Activity screens in chromium against a real platform: a user edits its name; a member
// with a linked bus identity sees it (name, public key, state, never the seed), downloads its creds file (a
// NATS creds file carrying the identity's JWT), rotates it (the stored JWT changes), is told in words why
// rotation is refused while the identity is suspended (the one expected 403), and clears its link; the
// per-device bus address override is saved, shown as the source in effect, kept across a reload and
// cleared; the Activity screen shows the entry a change made. No other response >= 400; axe finds nothing
// serious or critical.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, screenSettled, openScreen } from "../harness/browser";
import { useConsole, expectNoSeriousViolations } from "../harness/console";
import { PASSWORD, client, createMember, statusOf, unique } from "../harness/world";

const SERVER_URLS = ["ws://127.0.0.1:9333", "ws://127.0.0.2:9333"];
const { platform, world, ui } = useConsole({ PLATFORM_BUS_WEBSOCKET_URLS: SERVER_URLS.join(" ") });
const ROTATE = "/api/me/bus-creds/rotate";

/** Signs `email` in and opens `path` through the navigation's link named `screen`. */
async function open(email: string, screen: string): Promise<{ page: Page; failures: string[] }> {
  return openScreen(await ui.browser.newContext({ baseURL: platform.url, acceptDownloads: true }), email, PASSWORD, screen);
}

/** Confirms in the dialog titled `title` with the button `label`. */
async function confirm(page: Page, title: string, label: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await expectNoSeriousViolations(page, `${title} confirmation`);
  await dialog.getByRole("button", { name: label, exact: true }).click();
}

/** The two armoured sections of a NATS creds file. */
function parseCreds(text: string): { jwt: string; seed: string } {
  const jwt = /-----BEGIN NATS USER JWT-----\n([A-Za-z0-9_.-]+)\n------END NATS USER JWT------/.exec(text)?.[1];
  const seed = /-----BEGIN USER NKEY SEED-----\n(SU[A-Z2-7]+)\n------END USER NKEY SEED------/.exec(text)?.[1];
  if (!jwt || !seed) throw new Error("not a NATS creds file");
  return { jwt, seed };
}

describe("settings", () => {
  it("a user edits its name", async () => {
    const user = await createMember(world.su, world.a.organization.id, "viewer");
    const { page, failures } = await open(user.email as string, "Settings");
    await page.getByRole("region", { name: "Profile" }).getByText(user.email as string).waitFor();
    await expectNoSeriousViolations(page, "settings");
    const name = unique("Renamed");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Saved.").waitFor();
    expect((await world.su.collection("users").getOne(user.id)).name).toBe(name);
    await page.reload();
    await screenSettled(page, "Settings");
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe(name);
    await screenshot(page, "viewer-settings");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("a user changes its password and stays signed in; the new password signs in, the old one no longer", async () => {
    const user = await createMember(world.su, world.a.organization.id, "dashboard");
    const { page, failures } = await open(user.email as string, "Settings");
    const section = page.getByRole("region", { name: "Password" });
    const changed = "another-horse-battery";
    // Checked in the page first: no request for a repetition that differs.
    await section.getByLabel("Current password").fill(PASSWORD);
    await section.getByLabel("New password", { exact: true }).fill(changed);
    await section.getByLabel("New password again").fill(`${changed}!`);
    await section.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => section.getByRole("alert").textContent()).toContain("differ");
    await section.getByLabel("New password again").fill(changed);
    await section.getByRole("button", { name: "Change password" }).click();
    await section.getByText("Password changed.").waitFor();
    await expectNoSeriousViolations(page, "password changed");
    // The session goes on with the new token: the next screen loads without a 401.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Visualizer", exact: true }).click();
    await screenSettled(page, "Visualizer");
    expect(await statusOf(client(platform.url).collection("users").authWithPassword(user.email as string, changed))).toBe(200);
    expect(await statusOf(client(platform.url).collection("users").authWithPassword(user.email as string, PASSWORD))).toBe(400);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("a member sees its linked bus identity, downloads the creds file, rotates it, is told why a suspended one is not rotated, and clears the link", async () => {
    const org = world.a.organization.id;
    const member = await createMember(world.su, org, "member");
    const identity = await world.su.collection("bus_users").create({ organization: org, name: unique("console-user"), role: world.a.bus_roles.id, active: true });
    const membership = await world.su.collection("memberships").getFirstListItem(`user = "${member.id}"`);
    await world.su.collection("memberships").update(membership.id, { bus_user: identity.id });
    const minted = await world.su.collection("bus_users").getOne(identity.id);
    expect(minted.jwt).toMatch(/^ey/);

    const { page, failures } = await open(member.email as string, "Settings");
    const section = page.getByRole("region", { name: "My bus identity" });
    await section.getByText(minted.public_key, { exact: true }).waitFor();
    await section.getByText(identity.name, { exact: true }).waitFor();
    await section.getByText("Active", { exact: true }).waitFor();
    // The seed is never on the page.
    expect(await page.content()).not.toContain(parseCreds(minted.creds_file).seed);
    await expectNoSeriousViolations(page, "settings with a bus identity");
    await screenshot(page, "member-settings-bus-identity");

    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: "Download creds file" }).click()]);
    expect(download.suggestedFilename()).toBe(`${identity.name}.creds`);
    const creds = parseCreds(readFileSync(await download.path(), "utf8"));
    expect(creds.jwt).toBe(minted.jwt);
    expect(creds.seed).toMatch(/^SU/);

    // The page reads the identity again after a rotation: the suspension below must come after that read,
    // or the page already shows it suspended instead of trying and being refused.
    const reread = page.waitForResponse((response) => response.url().includes(`/api/collections/bus_users/records/${identity.id}?fields=id`));
    await section.getByRole("button", { name: "Rotate credential" }).click();
    await confirm(page, "Rotate credential", "Rotate");
    await section.getByText("Credential rotated").waitFor();
    await reread;
    const rotated = await world.su.collection("bus_users").getOne(identity.id);
    expect(rotated.jwt).not.toBe(minted.jwt);
    expect(rotated.public_key).toBe(minted.public_key);

    // Suspended behind the page's back: the route's 403 is said in words; the state is then shown.
    await world.su.collection("bus_users").update(identity.id, { active: false });
    await section.getByRole("button", { name: "Rotate credential" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate credential" });
    await dialog.getByRole("button", { name: "Rotate", exact: true }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("Your bus identity is suspended, so its credential cannot be rotated");
    await expectNoSeriousViolations(page, "rotation refused");
    await screenshot(page, "member-settings-rotate-suspended");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await section.getByText("Suspended", { exact: true }).waitFor();
    expect(await section.getByRole("button", { name: "Rotate credential" }).isDisabled()).toBe(true);

    await section.getByRole("button", { name: "Clear my link" }).click();
    await confirm(page, "Clear my link", "Clear link");
    await section.getByText("No bus identity is linked to your membership").waitFor();
    expect((await world.su.collection("memberships").getOne(membership.id)).bus_user).toBe("");
    // The identity itself stays.
    expect((await world.su.collection("bus_users").getOne(identity.id)).id).toBe(identity.id);
    await screenshot(page, "member-settings-bus-identity-cleared");

    // The one response >= 400 is the deliberate rotation of a suspended identity.
    expect(failures).toEqual([`403 POST ${platform.url}${ROTATE}`]);
    await page.context().close();
  });

  it("a viewer, a member and a dashboard leave the organization from Settings, confirmed; an owner is told it cannot", async () => {
    for (const role of ["viewer", "member", "dashboard"] as const) {
      const leaver = await createMember(world.su, world.a.organization.id, role);
      const { page, failures } = await open(leaver.email as string, "Settings");
      await page.getByRole("button", { name: "Leave this organization" }).click();
      await confirm(page, "Leave organization", "Leave");
      await screenSettled(page, "Settings");
      await expect.poll(async () => (await world.su.collection("memberships").getList(1, 1, { filter: `user = "${leaver.id}"` })).totalItems).toBe(0);
      expect((await world.su.collection("users").getOne(leaver.id)).current_organization, role).toBe("");
      await page.getByText("No organization").waitFor();
      expect(failures, role).toEqual([]);
      await page.context().close();
    }
    const { page } = await open(world.users.owner.email as string, "Settings");
    await page.getByText("As an owner you cannot leave this organization.").waitFor();
    expect(await page.getByRole("button", { name: "Leave this organization" }).count()).toBe(0);
    await page.context().close();
  });

  it("the bus address override is validated, saved on this device, shown as the source in effect and cleared", async () => {
    const { page, failures } = await open(world.users.member.email as string, "Settings");
    const section = page.getByRole("region", { name: "Bus address on this device" });
    const source = section.getByTestId("bus-source");
    await expect.poll(() => source.textContent()).toContain("the server's list");
    for (const url of SERVER_URLS) await section.getByText(url, { exact: true }).waitFor();

    const field = section.getByLabel("Override for this device");
    await field.fill("https://bus.example.test");
    await section.getByRole("button", { name: "Save override" }).click();
    await expect.poll(() => section.getByRole("alert").textContent()).toContain("must start with ws:// or wss://");
    await expectNoSeriousViolations(page, "override refused");

    const override = ["wss://bus-a.example.test:443", "wss://bus-b.example.test:443"];
    await field.fill(`${override[0]}, ${override[1]}`);
    await section.getByRole("button", { name: "Save override" }).click();
    await expect.poll(() => source.textContent()).toContain("this device's override");
    for (const url of override) await section.getByText(url, { exact: true }).waitFor();
    expect(await page.evaluate(() => Object.values(localStorage).some((v) => v.includes("bus-a.example.test")))).toBe(true);
    // The page's Content-Security-Policy admits the server's addresses only: the screen says the browser
    // will refuse these, and how to open them.
    await expect.poll(() => section.getByTestId("bus-unlisted").textContent()).toBe(
      `This page's security policy lets the browser dial only ${SERVER_URLS.join(", ")}, so it refuses ${override.join(", ")}: list the address in the server's bus.websocket_urls, or clear this device's override (Settings).`,
    );
    const policy = (await page.request.get("/settings")).headers()["content-security-policy"];
    for (const url of SERVER_URLS) expect(policy).toContain(url);
    expect(policy).not.toContain("bus-a.example.test");
    await expectNoSeriousViolations(page, "override saved");
    await screenshot(page, "member-settings-bus-override");

    // An override naming one of the server's addresses is admitted: no warning.
    await field.fill(SERVER_URLS[1]);
    await section.getByRole("button", { name: "Save override" }).click();
    await expect.poll(() => source.textContent()).toContain("this device's override");
    await section.getByText(SERVER_URLS[1], { exact: true }).waitFor();
    expect(await section.getByTestId("bus-unlisted").count()).toBe(0);

    // Kept on this device across a reload; cleared, the server's list is back.
    await page.reload();
    await screenSettled(page, "Settings");
    await expect.poll(() => source.textContent()).toContain("this device's override");
    await section.getByRole("button", { name: "Clear override" }).click();
    await expect.poll(() => source.textContent()).toContain("the server's list");
    expect(await page.evaluate(() => Object.values(localStorage).some((v) => v.includes("bus-a.example.test")))).toBe(false);

    // At phone width the screen does not widen the page.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "member-settings-360");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});

describe("activity", () => {
  it("shows the entry a change made, in words, newest first", async () => {
    const owner = await world.client("owner");
    const label = unique("Depot");
    // The feed names people by profile name; addresses stay private unless their owners show them.
    await world.su.collection("users").update(world.users.owner.id, { name: "Owen Owner" });
    // An admin without a name who keeps the address private, for the screenshots: "Unnamed user <id>".
    await (await world.client("admin")).collection("locations").create({ organization: world.a.organization.id, name: unique("Yard") });
    await owner.collection("locations").create({ organization: world.a.organization.id, name: label });

    const { page, failures } = await open(world.users.viewer.email as string, "Activity");
    const entries = page.locator("ul.activity > li");
    await expect.poll(() => entries.first().textContent()).toContain(`Owen Owner created Location “${label}”`);
    await expectNoSeriousViolations(page, "activity");
    await screenshot(page, "viewer-activity");
    await page.setViewportSize({ width: 360, height: 740 });
    await screenshot(page, "360-viewer-activity");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
