// The Thing wizard waits for the device (issue 38 item 4), in chromium against a real platform and hub:
// an owner creates a Thing with a new bus identity; the last step shows the password, the enrollment
// command and, while nothing has arrived, what to check on the device; then a REAL agent process enrolls
// with the shown password (`agent enroll`, password on stdin) and runs (`agent run`), and the same dialog
// shows its bus identity connected at the hub and its first heartbeat, live. A member's Thing has no bus
// identity: said in words. No response >= 400, axe finds nothing serious or critical, screenshots at
// 360 px and desktop.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enrollAgent, runEnrolled, type AgentProcess } from "../harness/agent";
import { CONSOLE_DIR, launchBrowser, openScreen, screenshot, seriousViolations } from "../harness/browser";
import { startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { buildWorld, createMember, PASSWORD, unique, type World } from "../harness/world";

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

let bus: PlatformWithBus;
let w: World;
let browser: Browser;
let agent: AgentProcess | undefined;
let scratch = "";

beforeAll(async () => {
  bus = await startPlatformWithBus({ advertiseWebsocket: true, env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
  w = await buildWorld(bus.platform);
  browser = await launchBrowser();
  scratch = mkdtempSync(join(tmpdir(), "wizard-agent-"));
  // The owner's browser dials with its own linked bus identity.
  const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("owner-browser"), role: w.a.bus_roles.id, active: true });
  const membership = await w.su.collection("memberships").getFirstListItem(`user = "${w.users.owner.id}" && organization = "${w.a.organization.id}"`);
  await w.su.collection("memberships").update(membership.id, { bus_user: identity.id });
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await browser?.close();
  await bus?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const secret = (dialog: Locator, label: string) => dialog.locator(`.secret:has(.label:text-is("${label}")) code`);

async function atWidths(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 740 });
  await screenshot(page, `${name}-360`);
  if (desktop) await page.setViewportSize(desktop);
}

/** Creates a Thing through the wizard (`bus`: the bus identity option's label) and returns the result dialog. */
async function createThroughWizard(page: Page, bus: string): Promise<Locator> {
  await page.getByRole("button", { name: "New Thing" }).click();
  const wizard = page.getByRole("dialog", { name: "New Thing" });
  await wizard.getByLabel("Name").fill(unique("Field device"));
  await wizard.getByRole("button", { name: "Next" }).click();
  await wizard.getByLabel("Bus identity").selectOption({ label: bus });
  await wizard.getByRole("button", { name: "Create Thing" }).click();
  return page.getByRole("dialog", { name: "Thing created" });
}

describe("the wizard waits for the device", () => {
  it("owner: what to check while nothing arrives, then a real agent's connection at the hub and first heartbeat, live", async () => {
    const { page, failures } = await openScreen(await browser.newContext({ baseURL: bus.platform.url }), w.users.owner.email as string, PASSWORD, "Things");
    const done = await createThroughWizard(page, "Create a new one");
    const email = (await secret(done, "E-mail").textContent()) ?? "";
    const password = (await secret(done, "Password").textContent()) ?? "";
    const contact = done.getByTestId("first-contact");
    await done.locator('[data-testid="first-contact"][data-stage="waiting"]').waitFor({ timeout: 20_000 });
    const checks = await contact.getByRole("listitem").allTextContents();
    for (const part of [`curl -fsS ${bus.platform.url}/api/health`, "as root", "agent run", "date -u", "port 4222"]) expect(checks.join("\n")).toContain(part);
    expect(await seriousViolations(page)).toEqual([]);
    await atWidths(page, "owner-wizard-waiting");

    // The device: the bundled agent enrolls with the shown password and runs against this hub.
    const stateDir = join(scratch, "device");
    expect(await enrollAgent(bus.platform.url, { email, password }, stateDir)).toContain("enrolled Thing");
    ({ agent } = await runEnrolled(stateDir, { AGENT_BUS_SERVERS: bus.busUrl, AGENT_BUS_HEARTBEAT_INTERVAL: "1s", AGENT_OVERLAY_ENABLED: "false" }));

    await contact.getByTestId("contact-heartbeat").waitFor({ timeout: 30_000 });
    await contact.getByTestId("contact-at-hub").waitFor({ timeout: 30_000 });
    expect(await contact.getAttribute("data-stage")).toBe("alive");
    expect(await contact.getByTestId("contact-at-hub").textContent()).toContain("(directly)");
    expect(await contact.getByTestId("contact-heartbeat").textContent()).toMatch(/First heartbeat at .*: agent \S+, state \S+/);
    // Alive: the checks are no longer offered.
    expect(await contact.getByText("If nothing arrives").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await atWidths(page, "owner-wizard-alive");
    expect(failures).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("member: a Thing without a bus identity, said in words with what to check", async () => {
    const member = await createMember(w.su, w.a.organization.id, "member");
    const { page, failures } = await openScreen(await browser.newContext({ baseURL: bus.platform.url }), member.email as string, PASSWORD, "Things");
    const done = await createThroughWizard(page, "None");
    const contact = done.getByTestId("first-contact");
    await contact.getByText("This Thing has no bus identity").waitFor();
    expect(await contact.getByText("If nothing arrives").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await atWidths(page, "member-wizard-no-bus-identity");
    expect(failures).toEqual([]);
    await page.context().close();
  }, 60_000);
});
