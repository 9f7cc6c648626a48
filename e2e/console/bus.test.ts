// The Bus screen in chromium against a real platform and a real nats-server: an owner adds and removes a
// signing key (the last one refused in words, without a request) and rotates them (confirmed, the warning
// shown); creates a bus user from a role, downloads its creds file (its JWT is the stored one) and, with a
// real NATS connection open on those creds, suspends it (the connection is closed, the creds refused) and
// reactivates it (the fresh creds connect); revoke-and-replace gives a new key that connects; regenerate
// keeps the key; a member's membership is linked to a bus user (and the member reads it in Settings); a
// role with permissions becomes the default; an export is created and deleted, an import created; a viewer
// reads the account and has no action. Every page records no response >= 400 and axe finds nothing serious or critical.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busAccepts, closedWithin, connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { CONSOLE_DIR, launchBrowser, screenshot, openScreen } from "../harness/browser";
import { expectNoSeriousViolations } from "../harness/console";
import { PASSWORD, buildWorld, createMember, unique, type World } from "../harness/world";

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

let bus: PlatformWithBus;
let world: World;
let browser: Browser;
const connections: NatsConnection[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus({ env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
  world = await buildWorld(bus.platform);
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
  await browser?.close();
  await bus?.stop();
});

/** Signs `email` in and opens `screen` through the navigation. */
async function open(email: string, screen = "Bus"): Promise<{ page: Page; failures: string[] }> {
  return openScreen(await browser.newContext({ baseURL: bus.platform.url, acceptDownloads: true }), email, PASSWORD, screen);
}

/** Confirms in the dialog titled `title` with the button `label`, after checking it says `says`. */
async function confirm(page: Page, title: string, label: string, says?: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  if (says) await dialog.getByText(says, { exact: false }).waitFor();
  await expectNoSeriousViolations(page, `${title} confirmation`);
  await dialog.getByRole("button", { name: label, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** The two armoured sections of a NATS creds file. */
function parseCreds(text: string): { jwt: string; seed: string } {
  const jwt = /-----BEGIN NATS USER JWT-----\n([A-Za-z0-9_.-]+)\n------END NATS USER JWT------/.exec(text)?.[1];
  const seed = /-----BEGIN USER NKEY SEED-----\n(SU[A-Z2-7]+)\n------END USER NKEY SEED------/.exec(text)?.[1];
  if (!jwt || !seed) throw new Error("not a NATS creds file");
  return { jwt, seed };
}

const accountOf = (organization: string) => world.su.collection("bus_accounts").getFirstListItem(`organization = "${organization}"`);
const keysOf = async (organization: string): Promise<string[]> => (await accountOf(organization)).signing_keys as string[];

/** The row of a list naming `name`. */
const rowOf = (section: Locator, name: string) => section.getByRole("row").filter({ has: section.page().getByRole("cell", { name, exact: true }) });

async function dial(creds: string): Promise<NatsConnection> {
  const nc = await connectWithCreds(bus.busUrl, creds);
  connections.push(nc);
  return nc;
}

describe("bus account", () => {
  it("an owner adds and removes a signing key, is refused the last one in words, and rotates after the warning", async () => {
    // Organization b: its credentials are re-signed by the rotation, the other tests use organization a.
    const org = world.b.organization.id;
    const [first] = await keysOf(org);
    const oldCreds = (await world.su.collection("bus_users").getOne(world.b.bus_users.id)).creds_file as string;
    expect(await busAccepts(bus.busUrl, oldCreds)).toBe(true);

    const { page, failures } = await open(world.users.foreign_owner.email as string);
    const account = page.getByRole("region", { name: "Account" });
    await account.getByText((await accountOf(org)).public_key as string, { exact: true }).waitFor();
    await expect.poll(() => account.getByTestId("bus-confirmation").textContent()).toBe("Confirmed by the bus");
    await account.getByText("Connections", { exact: true }).waitFor();
    await account.getByText(first, { exact: true }).waitFor();
    await expectNoSeriousViolations(page, "bus account");
    await screenshot(page, "owner-bus");

    // The only key: refused in words, nothing sent.
    await account.getByRole("button", { name: `Remove signing key ${first}` }).click();
    await expect.poll(() => account.getByRole("alert").textContent()).toContain("The last signing key cannot be removed");
    expect(await keysOf(org)).toEqual([first]);
    // At phone width the refusal shows beside the keys, in view of the button that asked.
    await page.setViewportSize({ width: 360, height: 740 });
    await account.getByRole("button", { name: `Remove signing key ${first}` }).click();
    const inView = await account.getByRole("alert").evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await page.setViewportSize({ width: 1280, height: 720 });

    await account.getByRole("button", { name: "Add signing key" }).click();
    await account.getByText("Signing key added").waitFor();
    const added = await keysOf(org);
    expect(added).toHaveLength(2);
    expect(added[0]).toBe(first);
    await account.getByText(added[1], { exact: true }).waitFor();

    await account.getByRole("button", { name: `Remove signing key ${added[1]}` }).click();
    await confirm(page, "Remove signing key", "Remove key", "existing creds files stay valid");
    await account.getByText("Signing key removed.").waitFor();
    expect(await keysOf(org)).toEqual([first]);
    expect(await busAccepts(bus.busUrl, oldCreds)).toBe(true);

    await account.getByRole("button", { name: "Rotate all keys" }).click();
    await confirm(page, "Rotate signing keys", "Rotate all keys", "Every credential in the account stops validating");
    await account.getByText("Signing keys rotated").waitFor();
    const rotated = await keysOf(org);
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).not.toBe(first);
    await account.getByText(rotated[0], { exact: true }).waitFor();
    // The copy handed out before stops validating once the re-signed claim is published.
    expect(await eventually(async () => !(await busAccepts(bus.busUrl, oldCreds)))).toBe(true);
    await screenshot(page, "owner-bus-rotated");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});

describe("bus users", () => {
  it("an owner creates one from a role, downloads its creds, suspends it (its connection closes), reactivates, revokes and replaces, regenerates", async () => {
    const org = world.a.organization.id;
    const { page, failures } = await open(world.users.owner.email as string);
    const users = page.getByRole("region", { name: "Bus users" });
    const name = unique("console-device");

    await users.getByRole("button", { name: "New bus user" }).click();
    const form = page.getByRole("dialog", { name: "New bus user" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Role").selectOption({ label: world.a.bus_roles.name as string });
    await expectNoSeriousViolations(page, "new bus user");
    await form.getByRole("button", { name: "Create bus user" }).click();
    await form.waitFor({ state: "hidden" });
    const row = rowOf(users, name);
    await row.getByRole("cell", { name: "Active", exact: true }).waitFor();
    const stored = await world.su.collection("bus_users").getFirstListItem(`organization = "${org}" && name = "${name}"`);
    expect(stored.role).toBe(world.a.bus_roles.id);
    // The list shows the public key, never the seed.
    await row.getByText(stored.public_key, { exact: true }).waitFor();
    expect(await page.content()).not.toContain(parseCreds(stored.creds_file).seed);

    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: `Download creds of ${name}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${name}.creds`);
    const text = readFileSync(await download.path(), "utf8");
    expect(parseCreds(text).jwt).toBe(stored.jwt);
    const nc = await dial(text);
    await nc.flush();

    await row.getByRole("button", { name: `Suspend ${name}` }).click();
    await confirm(page, "Suspend bus user", "Suspend", "every connection using it is closed at once");
    await row.getByRole("cell", { name: "Suspended", exact: true }).waitFor();
    expect(await closedWithin(nc, 5_000)).toBe(true);
    expect(await busAccepts(bus.busUrl, text)).toBe(false);
    await screenshot(page, "owner-bus-user-suspended");

    await row.getByRole("button", { name: `Reactivate ${name}` }).click();
    await confirm(page, "Reactivate bus user", "Reactivate", "stay refused");
    await row.getByRole("cell", { name: "Active", exact: true }).waitFor();
    const reactivated = await world.su.collection("bus_users").getOne(stored.id);
    expect(reactivated.public_key).toBe(stored.public_key);
    expect(await eventually(() => busAccepts(bus.busUrl, reactivated.creds_file))).toBe(true);
    // The file downloaded before the suspension stays refused (the cutoff is permanent).
    expect(await busAccepts(bus.busUrl, text)).toBe(false);

    const live = await dial(reactivated.creds_file);
    await live.flush();
    await row.getByRole("button", { name: `Revoke and replace ${name}` }).click();
    await confirm(page, "Revoke and replace", "Revoke and replace", "revoked for good");
    await users.getByText("has a new key").waitFor();
    const replaced = await world.su.collection("bus_users").getOne(stored.id);
    expect(replaced.public_key).not.toBe(stored.public_key);
    await row.getByText(replaced.public_key, { exact: true }).waitFor();
    expect(await closedWithin(live, 5_000)).toBe(true);
    expect(await eventually(() => busAccepts(bus.busUrl, replaced.creds_file))).toBe(true);

    await row.getByRole("button", { name: `Regenerate ${name}` }).click();
    await confirm(page, "Regenerate credential", "Regenerate", "The key stays");
    await users.getByText("credential was re-signed").waitFor();
    const regenerated = await world.su.collection("bus_users").getOne(stored.id);
    expect(regenerated.public_key).toBe(replaced.public_key);
    expect(regenerated.jwt).not.toBe(replaced.jwt);
    await expectNoSeriousViolations(page, "bus users after changes");
    await screenshot(page, "owner-bus-users");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("an owner links a member's membership to a bus user; the member then reads it in Settings", async () => {
    const org = world.a.organization.id;
    const member = await createMember(world.su, org, "member");
    await world.su.collection("users").update(member.id, { name: unique("Linked member") });
    const memberName = (await world.su.collection("users").getOne(member.id)).name as string;
    const identity = await world.su.collection("bus_users").create({ organization: org, name: unique("member-identity"), role: world.a.bus_roles.id, active: true });

    const { page, failures } = await open(world.users.owner.email as string);
    const links = page.getByRole("region", { name: "Members' bus identities" });
    const select = links.getByLabel(`Bus identity of ${memberName}`);
    await select.selectOption({ label: identity.name });
    await links.getByText(`${memberName} now uses ${identity.name}.`).waitFor();
    const membership = await world.su.collection("memberships").getFirstListItem(`user = "${member.id}"`);
    expect(membership.bus_user).toBe(identity.id);
    await expectNoSeriousViolations(page, "members' bus identities");
    await screenshot(page, "owner-bus-links");

    // At phone width the screen does not widen the page (its tables scroll in their own box).
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "360-owner-bus");
    expect(failures).toEqual([]);
    await page.context().close();

    // The member reads the identity it is now linked to.
    const settings = await open(member.email as string, "Settings");
    await settings.page.getByRole("region", { name: "My bus identity" }).getByText(identity.name, { exact: true }).waitFor();
    expect(settings.failures).toEqual([]);
    await settings.page.context().close();
  });
});

describe("roles, exports and imports", () => {
  it("an owner creates a role with permissions and makes it the default, creates and deletes an export, creates an import", async () => {
    const org = world.a.organization.id;
    const { page, failures } = await open(world.users.owner.email as string);
    const roles = page.getByRole("region", { name: "Roles" });
    const name = unique("sensors");
    await roles.getByRole("button", { name: "New role" }).click();
    const form = page.getByRole("dialog", { name: "New role" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("May publish to").fill("telemetry.>, heartbeat.*");
    await form.getByLabel("May subscribe to").fill("cmd.>");
    await form.getByLabel("Default role").check();
    await expectNoSeriousViolations(page, "new role");
    await form.getByRole("button", { name: "Create role" }).click();
    await form.waitFor({ state: "hidden" });
    await rowOf(roles, name).getByRole("cell", { name: "Default", exact: true }).waitFor();
    const defaults = await world.su.collection("bus_roles").getFullList({ filter: `organization = "${org}" && is_default = true` });
    expect(defaults.map((r) => r.name)).toEqual([name]);
    expect(defaults[0].publish_permissions).toEqual({ allow: ["telemetry.>", "heartbeat.*"] });
    expect(defaults[0].subscribe_permissions).toEqual({ allow: ["cmd.>"] });

    const exports = page.getByRole("region", { name: "Exports" });
    const exported = unique("health");
    await exports.getByRole("button", { name: "New export" }).click();
    const exportForm = page.getByRole("dialog", { name: "New export" });
    await exportForm.getByLabel("Name").fill(exported);
    await exportForm.getByLabel("Subject", { exact: true }).fill("health.>");
    await exportForm.getByLabel("Kind").selectOption("service");
    await exportForm.getByRole("button", { name: "Create export" }).click();
    await exportForm.waitFor({ state: "hidden" });
    await rowOf(exports, exported).waitFor();
    expect((await world.su.collection("bus_account_exports").getFirstListItem(`name = "${exported}"`)).kind).toBe("service");
    await rowOf(exports, exported).getByRole("button", { name: `Delete export ${exported}` }).click();
    await confirm(page, "Delete export", "Delete", "accounts importing it stop receiving");
    await rowOf(exports, exported).waitFor({ state: "detached" });
    expect(await world.su.collection("bus_account_exports").getFullList({ filter: `name = "${exported}"` })).toEqual([]);

    const imports = page.getByRole("region", { name: "Imports" });
    const imported = unique("partner");
    await imports.getByRole("button", { name: "New import" }).click();
    const importForm = page.getByRole("dialog", { name: "New import" });
    await importForm.getByLabel("Name").fill(imported);
    await importForm.getByLabel("Subject", { exact: true }).fill("telemetry.>");
    await importForm.getByLabel("Exporting account's public key").fill(world.b.bus_accounts.public_key as string);
    await importForm.getByLabel("Local subject").fill("partner.b.>");
    await expectNoSeriousViolations(page, "new import");
    await importForm.getByRole("button", { name: "Create import" }).click();
    await importForm.waitFor({ state: "hidden" });
    await rowOf(imports, imported).waitFor();
    expect((await world.su.collection("bus_account_imports").getFirstListItem(`name = "${imported}"`)).local_subject).toBe("partner.b.>");
    await screenshot(page, "owner-bus-roles-exports-imports");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});

describe("read-only roles", () => {
  it("a viewer reads the account and is offered no key or bus-user action", async () => {
    const { page, failures } = await open(world.users.viewer.email as string);
    const account = page.getByRole("region", { name: "Account" });
    await account.getByText((await accountOf(world.a.organization.id)).public_key as string, { exact: true }).waitFor();
    await account.getByText("Confirmed by the bus").waitFor();
    expect(await page.getByRole("button", { name: /signing key|Rotate|Remove/ }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Bus users" }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Roles" }).count()).toBe(0);
    expect(await page.getByRole("button").filter({ hasText: /Suspend|Revoke|Download creds|New bus user/ }).count()).toBe(0);
    await expectNoSeriousViolations(page, "viewer bus");
    await screenshot(page, "viewer-bus");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
