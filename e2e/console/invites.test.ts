// Invitations and members in the console, in chromium against a real platform: an invitation created in
// the console is accepted through its link by a new user signing up and by an existing user signing in;
// every other outcome of POST /api/org/invites/accept (alreadyMember, 403, 404, 410) is shown in words;
// an owner changes a role and removes a member (each confirmed) and sees the guard on leaving; a viewer
// has no Members screen. No response >= 400 except the deliberate refusals of accept; axe finds nothing
// serious or critical.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { failedResponses, screenSettled, screenshot, seriousViolations, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { PASSWORD, createMember, unique } from "../harness/world";

const { platform, world, ui } = useConsole();
const ACCEPT = "/api/org/invites/accept";

async function newPage(): Promise<{ page: Page; failures: string[] }> {
  const context = await ui.browser.newContext({ baseURL: platform.url });
  const page = await context.newPage();
  return { page, failures: failedResponses(page) };
}

async function signedIn(email: string): Promise<{ page: Page; failures: string[] }> {
  const opened = await newPage();
  await opened.page.goto("/signin");
  await signInThroughForm(opened.page, email, PASSWORD);
  await opened.page.waitForURL((url) => url.pathname !== "/signin");
  return opened;
}

/** The owner creates an invitation on the Invitations screen and reads its link there. */
async function inviteThroughConsole(owner: Page, email: string, role: string): Promise<string> {
  await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Invitations", exact: true }).click();
  await screenSettled(owner, "Invitations");
  await owner.getByLabel("E-mail address").fill(email);
  await owner.getByLabel("Role", { exact: true }).selectOption(role);
  await owner.getByRole("button", { name: "Create invitation" }).click();
  const link = owner.getByLabel("Link of the new invitation");
  await link.waitFor();
  await expect.poll(() => owner.getByLabel(`Link for ${email}`).count()).toBe(1);
  return link.inputValue();
}

/** On the accept page (signed in): accepts and answers the outcome shown. */
async function acceptShown(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Accept invitation" }).click();
  const status = page.getByRole("status");
  await status.waitFor();
  await page.locator('main[aria-busy="false"]').waitFor();
  return (await status.textContent()) ?? "";
}

describe("invitation accept page", () => {
  it("an invitation created in the console is accepted by a new user signing up, who lands in the organization", async () => {
    const { page: owner, failures: ownerFailures } = await signedIn(world.users.owner.email as string);
    const email = `${unique("newcomer")}@example.test`;
    const link = await inviteThroughConsole(owner, email, "viewer");
    expect(link).toMatch(new RegExp(`^${platform.url}/accept\\?token=[A-Za-z0-9]{43}$`));
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, "owner-invitations-created");

    const { page, failures } = await newPage();
    await page.goto(link);
    await screenSettled(page, "Accept an invitation");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "accept-signed-out");
    await page.getByRole("button", { name: "I need an account" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    expect(await acceptShown(page)).toContain("Invitation accepted");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: /^Open / }).click();
    await page.waitForURL("**/things");
    await screenSettled(page, "Things");
    await expect.poll(() => page.getByLabel("Organization").locator("option:checked").textContent()).toContain("(viewer)");
    expect(failures).toEqual([]);

    // Accepted, it is gone from the owner's pending list.
    await owner.reload();
    await screenSettled(owner, "Invitations");
    expect(await owner.getByLabel(`Link for ${email}`).count()).toBe(0);
    expect(ownerFailures).toEqual([]);
    await page.context().close();
    await owner.context().close();
  });

  it("an existing user signs in on the page and is put in the organization", async () => {
    const existing = await createMember(world.su, world.b.organization.id, "member");
    const { page: owner } = await signedIn(world.users.owner.email as string);
    const link = await inviteThroughConsole(owner, existing.email as string, "member");
    await owner.context().close();

    const { page, failures } = await newPage();
    await page.goto(link);
    await page.getByLabel("Email").fill(existing.email as string);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await acceptShown(page)).toContain("Invitation accepted");
    await page.getByRole("button", { name: `Open ${world.a.organization.name}` }).click();
    await page.waitForURL("**/things");
    await expect.poll(() => page.getByLabel("Organization").locator("option:checked").textContent()).toContain(world.a.organization.name);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("already a member, another address (403), unknown token (404) and expired (410) are each said in words", async () => {
    const su = world.su;
    const org = world.a.organization.id;
    const member = await createMember(su, org, "member");
    const already = await su.collection("invites").create({ organization: org, email: member.email, role: "viewer" });
    const other = await su.collection("invites").create({ organization: org, email: `${unique("someone")}@example.test`, role: "viewer" });
    const expired = await su.collection("invites").create({ organization: org, email: member.email, role: "viewer", token: unique("expired").replace(/[^A-Za-z0-9]/g, ""), expiry: new Date(Date.now() - 60_000).toISOString() });

    const { page, failures } = await signedIn(member.email as string);
    const cases: Array<[string, string, string | null]> = [
      [already.token, "already a member", null],
      [other.token, "sent to another e-mail address", "403"],
      ["no-such-token", "No invitation matches this link", "404"],
      [expired.token, "This invitation has expired", "410"],
    ];
    const expected: string[] = [];
    for (const [token, words, status] of cases) {
      await page.goto(`/accept?token=${encodeURIComponent(token)}`);
      await screenSettled(page, "Accept an invitation");
      const text = await acceptShown(page);
      expect(text, token).toContain(words);
      expect(await seriousViolations(page)).toEqual([]);
      if (status) expected.push(`${status} POST ${platform.url}${ACCEPT}`);
      await screenshot(page, `accept-${status ?? "already-member"}`);
    }
    // The only responses >= 400 are the deliberate refusals of accept.
    expect(failures).toEqual(expected);
    await page.context().close();
  });
});

describe("members", () => {
  it("the owner changes a role and removes a member, each confirmed, and cannot leave", async () => {
    const org = world.a.organization.id;
    const promoted = await createMember(world.su, org, "viewer");
    await world.su.collection("users").update(promoted.id, { name: unique("Promoted") });
    const removed = await createMember(world.su, org, "member");
    await world.su.collection("users").update(removed.id, { name: unique("Removed") });
    const names = { promoted: (await world.su.collection("users").getOne(promoted.id)).name as string, removed: (await world.su.collection("users").getOne(removed.id)).name as string };

    const { page, failures } = await signedIn(world.users.owner.email as string);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members", exact: true }).click();
    await screenSettled(page, "Members");
    await expect.poll(() => page.getByText("As an owner you cannot leave this organization.").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // Cancelled, nothing changes; confirmed, the role is stored.
    const select = page.getByLabel(`Role of ${names.promoted}`);
    await select.selectOption("admin");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect(await select.inputValue()).toBe("viewer");
    await select.selectOption("admin");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "owner-members-confirm");
    await page.getByRole("dialog").getByRole("button", { name: "Change role" }).click();
    await expect.poll(async () => (await world.su.collection("memberships").getFirstListItem(`user = "${promoted.id}"`)).role).toBe("admin");

    await page.getByRole("button", { name: `Remove ${names.removed}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.getByRole("button", { name: `Remove ${names.removed}` }).count()).toBe(0);
    expect(await world.su.collection("memberships").getList(1, 1, { filter: `user = "${removed.id}"` }).then((r) => r.totalItems)).toBe(0);
    await screenshot(page, "owner-members");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("a member removed while signed in is told so at its next navigation, its organization's screens closed", async () => {
    const removed = await createMember(world.su, world.a.organization.id, "member");
    const { page, failures } = await signedIn(removed.email as string);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Locations", exact: true }).click();
    await screenSettled(page, "Locations");
    await world.su.collection("memberships").delete((await world.su.collection("memberships").getFirstListItem(`user = "${removed.id}"`)).id);
    // The session is checked on navigation at most every 5 s.
    await new Promise((r) => setTimeout(r, 5_500));
    await nav.getByRole("link", { name: "Things", exact: true }).click();
    const notice = page.getByRole("status").filter({ hasText: "You are no longer a member of" });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`You are no longer a member of ${world.a.organization.name}: its screens are closed.`);
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Settings"]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "member-removed-notice");
    await notice.getByRole("button", { name: "Dismiss" }).click();
    expect(await notice.count()).toBe(0);
    // The screen opened by that click reads before the check answers: its reads of the organization are 404s.
    expect(failures.filter((failure) => !failure.startsWith("404 "))).toEqual([]);
    await page.context().close();
  });

  it("a session whose password was changed elsewhere goes back to sign-in at its next navigation", async () => {
    const user = await createMember(world.su, world.a.organization.id, "viewer");
    const { page } = await signedIn(user.email as string);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Locations", exact: true }).click();
    await screenSettled(page, "Locations");
    await world.su.collection("users").update(user.id, { password: `${PASSWORD}-new`, passwordConfirm: `${PASSWORD}-new` });
    await new Promise((r) => setTimeout(r, 5_500));
    await nav.getByRole("link", { name: "Things", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/signin");
    await page.context().close();
  });

  it("a viewer has no Members screen", async () => {
    const { page, failures } = await signedIn(world.users.viewer.email as string);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link").first().waitFor();
    expect(await nav.getByRole("link", { name: "Members" }).count()).toBe(0);
    await page.goto("/members");
    await screenSettled(page, "Not available");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
