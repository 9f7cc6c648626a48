// The Streams screen in chromium against a real platform and hub (websocket listener, JetStream on): an
// owner whose linked bus identity may use the JetStream API creates a stream and a key-value bucket through
// the UI, sees them listed, purges and deletes them, each step checked against the hub with a Node client;
// an admin whose bus identity may not publish on the JetStream API reads the refusal naming the subject;
// a viewer has no such screen. At 360 px nothing widens the page. No response >= 400; axe finds nothing serious or critical; screenshots.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_DIR, failedResponses, launchBrowser, screenSettled, screenshot, seriousViolations, signInThroughForm } from "../harness/browser";
import { connectWithCreds, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { buildWorld, createMember, PASSWORD, unique, type World } from "../harness/world";

if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);

let bus: PlatformWithBus;
let w: World;
let browser: Browser;
let hub: NatsConnection;
let jsm: JetStreamManager;

/** Links a new bus identity of organization A, with these permissions (none: the account's defaults), to a user's membership. */
async function linkIdentity(userId: string, permissions: Record<string, unknown> = {}): Promise<string> {
  const identity = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("browser"), active: true, ...permissions });
  const membership = await w.su.collection("memberships").getFirstListItem(`user = "${userId}" && organization = "${w.a.organization.id}"`);
  await w.su.collection("memberships").update(membership.id, { bus_user: identity.id });
  return (await w.su.collection("bus_users").getOne(identity.id)).creds_file as string;
}

beforeAll(async () => {
  bus = await startPlatformWithBus({ advertiseWebsocket: true, env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
  w = await buildWorld(bus.platform);
  browser = await launchBrowser();
  // The owner's identity has no role: the account's default permissions, the JetStream API included.
  hub = await connectWithCreds(bus.busUrl, await linkIdentity(w.users.owner.id));
  jsm = await jetstreamManager(hub);
}, 120_000);
afterAll(async () => {
  await hub?.close().catch(() => undefined);
  await browser?.close();
  await bus?.stop();
});

async function signedIn(email: string): Promise<{ page: Page; failures: string[] }> {
  const page = await (await browser.newContext({ baseURL: bus.platform.url })).newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await signInThroughForm(page, email, PASSWORD);
  await page.waitForURL((url) => url.pathname !== "/signin");
  return { page, failures };
}

async function openStreams(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Streams", exact: true }).click();
  await screenSettled(page, "Streams");
  await page.locator('[data-testid="bus-state"][data-state="connected"]').waitFor({ timeout: 20_000 });
}

const exists = (stream: string) => jsm.streams.info(stream).then(() => true, () => false);

describe("streams and buckets", () => {
  it("an owner creates a stream and a bucket, sees them listed, purges and deletes them", async () => {
    const { page, failures } = await signedIn(w.users.owner.email as string);
    await openStreams(page);
    const stream = unique("ORDERS").replace(/[^\w-]/g, "_");
    const bucket = unique("settings").replace(/[^\w-]/g, "_");
    const subject = `orders.${stream.toLowerCase()}.>`;

    // A stream: name and subject, with a refused form first (a subject with a space is said in words).
    await page.getByRole("button", { name: "New stream" }).click();
    const form = page.getByRole("dialog", { name: "New stream" });
    await form.getByLabel("Name", { exact: true }).fill(stream);
    await form.getByLabel("Subjects").fill("orders. x");
    await form.getByRole("button", { name: "Create stream" }).click();
    await form.getByText("has an empty token or a space").waitFor();
    expect(await exists(stream)).toBe(false);
    await form.getByLabel("Subjects").fill(subject);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "owner-streams-create");
    await form.getByRole("button", { name: "Create stream" }).click();
    await page.getByTestId("streams").getByRole("rowheader", { name: stream }).waitFor();
    expect((await jsm.streams.info(stream)).config.subjects).toEqual([subject]);

    // A bucket: name only (one value per key, file storage).
    await page.getByRole("button", { name: "New bucket" }).click();
    const bucketForm = page.getByRole("dialog", { name: "New key-value bucket" });
    await bucketForm.getByLabel("Name", { exact: true }).fill(bucket);
    await bucketForm.getByRole("button", { name: "Create bucket" }).click();
    await page.getByTestId("buckets").getByRole("rowheader", { name: bucket }).waitFor();
    const kvInfo = await jsm.streams.info(`KV_${bucket}`);
    expect(kvInfo.config.subjects).toEqual([`$KV.${bucket}.>`]);
    expect(kvInfo.config.max_msgs_per_subject).toBe(1);

    // Content to purge, written by the hub client; the screen reads it on its next listing.
    const js = jetstream(hub);
    for (let i = 0; i < 3; i++) await js.publish(`orders.${stream.toLowerCase()}.${i}`, `order ${i}`);
    await js.publish(`$KV.${bucket}.mode`, "eco");
    await page.reload();
    await screenSettled(page, "Streams");
    const streamRow = page.getByTestId("streams").getByRole("row").filter({ has: page.getByRole("rowheader", { name: stream }) });
    await streamRow.getByRole("cell", { name: "3", exact: true }).waitFor();
    await streamRow.getByRole("button", { name: `Inspect ${stream}` }).click();
    const details = page.getByTestId("store-details");
    expect(await details.textContent()).toContain(subject);
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "owner-streams-listed");
    // At 360 px the tables scroll inside the page instead of widening it.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "360-owner-streams");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Purge: confirmed with what is removed; the stream stays, empty.
    await streamRow.getByRole("button", { name: `Purge ${stream}` }).click();
    const purge = page.getByRole("dialog", { name: "Purge stream" });
    expect(await purge.textContent()).toContain("All 3 messages");
    await purge.getByRole("button", { name: "Purge", exact: true }).click();
    await page.getByRole("status").getByText(`Stream ${stream} purged.`).waitFor();
    expect((await jsm.streams.info(stream)).state.messages).toBe(0);

    const bucketRow = page.getByTestId("buckets").getByRole("row").filter({ has: page.getByRole("rowheader", { name: bucket }) });
    await bucketRow.getByRole("button", { name: `Purge ${bucket}` }).click();
    const purgeBucket = page.getByRole("dialog", { name: "Purge bucket" });
    expect(await purgeBucket.textContent()).toContain(`Every key of bucket ${bucket}`);
    await purgeBucket.getByRole("button", { name: "Purge", exact: true }).click();
    await page.getByRole("status").getByText(`Bucket ${bucket} purged.`).waitFor();
    expect((await jsm.streams.info(`KV_${bucket}`)).state.messages).toBe(0);

    // Delete: confirmed with what is destroyed; gone from the hub and from the list.
    await streamRow.getByRole("button", { name: `Delete ${stream}` }).click();
    const remove = page.getByRole("dialog", { name: "Delete stream" });
    expect(await remove.textContent()).toContain(`publishers to ${subject} get no acknowledgement`);
    await screenshot(page, "owner-streams-delete");
    await remove.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("status").getByText(`Stream ${stream} deleted.`).waitFor();
    expect(await exists(stream)).toBe(false);
    await bucketRow.getByRole("button", { name: `Delete ${bucket}` }).click();
    await page.getByRole("dialog", { name: "Delete bucket" }).getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("status").getByText(`Bucket ${bucket} deleted.`).waitFor();
    expect(await exists(`KV_${bucket}`)).toBe(false);
    expect(await page.getByTestId("streams").getByRole("rowheader", { name: stream }).count()).toBe(0);
    expect(await page.getByTestId("buckets").getByRole("rowheader", { name: bucket }).count()).toBe(0);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("an admin whose bus identity may not publish on the JetStream API reads the refusal, naming the subject", async () => {
    const admin = await createMember(w.su, w.a.organization.id, "admin");
    await linkIdentity(admin.id, { publish_permissions: { deny: ["$JS.API.>"] } });
    const { page, failures } = await signedIn(admin.email as string);
    await openStreams(page);
    const error = page.getByTestId("streams-error");
    await error.waitFor({ timeout: 20_000 });
    const text = await error.textContent();
    console.log(`streams refusal shown: ${text}`);
    expect(text).toMatch(/^Your bus identity may not publish to \$JS\.API\.\S+: its permissions bound what you can do here\.$/);
    expect(await page.getByRole("button", { name: "New stream" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "admin-streams-refused");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("a viewer has no Streams screen", async () => {
    const { page, failures } = await signedIn(w.users.viewer.email as string);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Streams", exact: true }).count()).toBe(0);
    await page.goto("/streams");
    await screenSettled(page, "Not available");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
