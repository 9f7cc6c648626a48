// The Overlay screen in chromium against a real platform: an owner walks a CA rotation through its three
// steps (finish refused naming the host that still holds an outgoing-CA certificate, that host renewed
// from the refusal, then finish accepted), each state checked through the API; creates a network and a
// host and downloads the host's config as a file (YAML with pki ca/cert/key, the key never page text);
// deactivates and reactivates a host, each confirmed; renews a host the certificate audit lists; the
// screen at 360 px; a viewer reads the CA with no action. No response >= 400 but the one refused finish,
// axe finds nothing serious or critical, screenshots.
import { readFileSync } from "node:fs";
import yaml from "js-yaml";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, openScreen } from "../harness/browser";
import { useConsole, expectNoSeriousViolations } from "../harness/console";
import { PASSWORD, createMember, createOrganization, unique } from "../harness/world";

const { platform, world, ui } = useConsole();

async function openOverlay(email: string, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; failures: string[] }> {
  return openScreen(await ui.browser.newContext({ baseURL: platform.url, acceptDownloads: true, viewport }), email, PASSWORD, "Overlay");
}

/** Answers a confirmation dialog with its action, after checking it with axe. */
async function confirm(page: Page, title: string, label: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await expectNoSeriousViolations(page, `${title} confirmation`);
  await dialog.getByRole("button", { name: label, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.locator('main[aria-busy="false"]').waitFor();
}

function caSection(page: Page): Locator {
  return page.getByRole("region", { name: "Certificate authority" });
}

describe("console Overlay", () => {
  it("owner: rotates the CA in three steps; finish is refused naming the host still on the outgoing CA, renewed from there, then accepted", async () => {
    const organization = await createOrganization(world.su, "Rotating");
    const owner = await createMember(world.su, organization.id, "owner");
    const network = await world.su.collection("overlay_networks").create({ organization: organization.id, name: "plant", cidr: "10.60.0.0/16" });
    const host = (name: string, ip: string) =>
      world.su.collection("overlay_hosts").create({ organization: organization.id, network: network.id, name, overlay_ip: ip, active: true });
    await host("edge-a", "10.60.0.2");
    const edgeB = await host("edge-b", "10.60.0.3");
    const caRow = () => world.su.collection("overlay_ca").getFirstListItem(`organization = "${organization.id}"`);
    const outgoing = await caRow();

    const { page, failures } = await openOverlay(owner.email as string);
    const ca = caSection(page);
    await ca.getByText(/^valid until \d{4}-\d{2}-\d{2} \(\d+ days left\)$/).waitFor();
    await ca.getByText("No rotation under way: hosts trust one CA.").waitFor();
    // From no rotation only prepare is offered.
    expect(await ca.getByRole("button").allTextContents()).toEqual(["Prepare"]);
    await expectNoSeriousViolations(page, "Overlay");
    await screenshot(page, "owner-overlay");

    await ca.getByRole("button", { name: "Prepare" }).click();
    await confirm(page, "Prepare the CA rotation", "Prepare");
    await ca.getByText(/^Prepared:/).waitFor();
    const prepared = await caRow();
    expect([prepared.rotation, prepared.fingerprint, prepared.next_fingerprint !== ""]).toEqual(["prepared", outgoing.fingerprint, true]);

    await ca.getByRole("button", { name: "Commit" }).click();
    await confirm(page, "Commit the CA rotation", "Commit");
    await ca.getByText(/^Committed:/).waitFor();
    const committed = await caRow();
    expect([committed.rotation, committed.fingerprint, committed.previous_fingerprint]).toEqual(["committed", prepared.next_fingerprint, outgoing.fingerprint]);

    // An interrupted sweep, simulated: a SuperUser writes edge-b's outgoing-CA certificate back (a write
    // of `cert` alone does not re-sign).
    await world.su.collection("overlay_hosts").update(edgeB.id, { cert: edgeB.cert });
    await screenshot(page, "owner-overlay-committed");
    await ca.getByRole("button", { name: "Finish" }).click();
    await confirm(page, "Finish the CA rotation", "Finish");
    const refusal = ca.getByRole("alert");
    await refusal.getByText(`Refused: active host "edge-b" (id ${edgeB.id}) still holds a certificate of the outgoing overlay CA: run commit again to re-sign it`).waitFor();
    expect((await caRow()).rotation).toBe("committed");
    // The one response >= 400 this walk expects: the refused finish.
    expect(failures).toEqual([`400 POST ${platform.url}/api/org/overlay-ca/rotate`]);
    failures.length = 0;
    await expectNoSeriousViolations(page, "refused finish");
    await screenshot(page, "owner-overlay-finish-refused");

    await refusal.getByRole("button", { name: "Renew host edge-b" }).click();
    await confirm(page, "Renew host", "Renew");
    await expect.poll(async () => (await world.su.collection("overlay_hosts").getOne(edgeB.id)).cert).not.toBe(edgeB.cert);
    const renewed = await world.su.collection("overlay_hosts").getOne(edgeB.id);
    expect(renewed.active).toBe(true);
    expect(renewed.fingerprint).not.toBe(edgeB.fingerprint);

    await ca.getByRole("button", { name: "Finish" }).click();
    await confirm(page, "Finish the CA rotation", "Finish");
    await ca.getByText("No rotation under way: hosts trust one CA.").waitFor();
    const finished = await caRow();
    expect([finished.rotation, finished.fingerprint, finished.previous_fingerprint, finished.next_fingerprint]).toEqual(["", committed.fingerprint, "", ""]);
    expect(await ca.getByRole("alert").count()).toBe(0);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner: creates a network and a host and downloads the host's config as a file, its key never on the page", async () => {
    const { page, failures } = await openOverlay(world.users.owner.email as string);
    const networkName = unique("site");
    await page.getByRole("button", { name: "New Network", exact: true }).click();
    const networkForm = page.getByRole("dialog", { name: "New Network" });
    await networkForm.getByLabel("Name").fill(networkName);
    await networkForm.getByLabel("CIDR").fill("10.77.0.0/24");
    await expectNoSeriousViolations(page, "network form");
    await networkForm.getByRole("button", { name: "Create Network" }).click();
    await networkForm.waitFor({ state: "hidden" });
    const network = await world.su.collection("overlay_networks").getFirstListItem(`name = "${networkName}"`);
    expect([network.organization, network.cidr]).toEqual([world.a.organization.id, "10.77.0.0/24"]);

    const hostName = unique("gw");
    await page.getByRole("button", { name: "New host", exact: true }).click();
    const hostForm = page.getByRole("dialog", { name: "New overlay host" });
    await hostForm.getByLabel("Name").fill(hostName);
    await hostForm.getByLabel("Network").selectOption({ label: networkName });
    await hostForm.getByLabel("Overlay IP").fill("10.77.0.9");
    await hostForm.getByLabel("Groups").fill("gateways, plant");
    await expectNoSeriousViolations(page, "host form");
    await hostForm.getByRole("button", { name: "Create host" }).click();
    await hostForm.waitFor({ state: "hidden" });
    const host = await world.su.collection("overlay_hosts").getFirstListItem(`name = "${hostName}"`);
    expect([host.network, host.overlay_ip, host.groups, host.active]).toEqual([network.id, "10.77.0.9", ["gateways", "plant"], true]);

    const hosts = page.getByRole("region", { name: "Overlay hosts" });
    await hosts.getByRole("cell", { name: hostName, exact: true }).waitFor();
    await expectNoSeriousViolations(page, "hosts");
    const [download] = await Promise.all([page.waitForEvent("download"), hosts.getByRole("button", { name: `Download config of ${hostName}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${hostName}.yml`);
    const text = readFileSync((await download.path()) as string, "utf8");
    const config = yaml.load(text) as { pki: { ca: string; cert: string; key: string } };
    expect(config.pki.ca).toContain("BEGIN NEBULA CERTIFICATE");
    expect(config.pki.cert.trim()).toBe(host.cert.trim());
    expect(config.pki.key).toContain("BEGIN NEBULA X25519 PRIVATE KEY");
    // The key is in the file only: nowhere in the page's text or markup.
    expect(await page.content()).not.toContain("PRIVATE KEY");
    await screenshot(page, "owner-overlay-hosts");
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner: deactivates a host and reactivates it, each confirmed, and the API shows its state", async () => {
    const target = world.a.overlay_hosts;
    const { page, failures } = await openOverlay(world.users.owner.email as string);
    const hosts = page.getByRole("region", { name: "Overlay hosts" });
    await hosts.getByRole("button", { name: `Deactivate ${target.name}`, exact: true }).click();
    await confirm(page, "Deactivate host", "Deactivate");
    await hosts.getByRole("button", { name: `Reactivate ${target.name}`, exact: true }).waitFor();
    expect((await world.su.collection("overlay_hosts").getOne(target.id)).active).toBe(false);

    await hosts.getByRole("button", { name: `Reactivate ${target.name}`, exact: true }).click();
    await confirm(page, "Reactivate host", "Reactivate");
    await hosts.getByRole("button", { name: `Deactivate ${target.name}`, exact: true }).waitFor();
    const reactivated = await world.su.collection("overlay_hosts").getOne(target.id);
    expect(reactivated.active).toBe(true);
    expect(reactivated.fingerprint).not.toBe(target.fingerprint);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner: the certificate audit lists a host whose network changed, and renewing it from there clears it", async () => {
    const organization = await createOrganization(world.su, "Audited");
    const owner = await createMember(world.su, organization.id, "owner");
    const network = await world.su.collection("overlay_networks").create({ organization: organization.id, name: "yard", cidr: "10.61.0.0/16" });
    const host = await world.su.collection("overlay_hosts").create({ organization: organization.id, network: network.id, name: "crane", overlay_ip: "10.61.0.7", active: true });
    // A changed CIDR re-signs no host: the certificate still says /16.
    await world.su.collection("overlay_networks").update(network.id, { cidr: "10.61.0.0/24" });

    const { page, failures } = await openOverlay(owner.email as string);
    const audit = page.getByRole("region", { name: "Certificate audit" });
    await audit.getByText("crane (10.61.0.7)").waitFor();
    await expectNoSeriousViolations(page, "certificate audit");
    await screenshot(page, "owner-overlay-audit");
    await audit.getByRole("button", { name: "Renew crane", exact: true }).click();
    await confirm(page, "Renew host", "Renew");
    await audit.getByText("Every active host's certificate matches its network.").waitFor();
    expect((await world.su.collection("overlay_hosts").getOne(host.id)).fingerprint).not.toBe(host.fingerprint);
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("owner at 360 px: the screen and the host form fit the width", async () => {
    const { page, failures } = await openOverlay(world.users.owner.email as string, { width: 360, height: 740 });
    const pageWidth = () => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(360);
    await page.getByRole("button", { name: "New host", exact: true }).click();
    const form = page.getByRole("dialog", { name: "New overlay host" });
    await form.waitFor();
    const box = (await form.boundingBox())!;
    expect([box.x >= 0, box.x + box.width <= 360]).toEqual([true, true]);
    expect(await pageWidth()).toBeLessThanOrEqual(360);
    await screenshot(page, "360-owner-overlay-new-host");
    await form.getByRole("button", { name: "Cancel", exact: true }).click();
    expect(failures).toEqual([]);
    await page.context().close();
  });

  it("viewer: reads the CA with its validity, with no rotation, network or host action", async () => {
    const { page, failures } = await openOverlay(world.users.viewer.email as string);
    const ca = caSection(page);
    await ca.getByText(world.a.overlay_ca.name as string, { exact: true }).waitFor();
    await ca.getByText(/^valid until /).waitFor();
    await page.getByText("Read only: owners and admins rotate the CA.").waitFor();
    expect(await page.getByRole("main").getByRole("button").count()).toBe(0);
    expect(await page.getByRole("region", { name: "Overlay hosts" }).count()).toBe(0);
    await expectNoSeriousViolations(page, "viewer Overlay");
    await screenshot(page, "viewer-overlay");
    expect(failures).toEqual([]);
    await page.context().close();
  });
});
