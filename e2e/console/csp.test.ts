// The console's security headers against a real platform (issue 13 item 6, docs/console.md "Security
// headers"): its index and a deep link carry the Content-Security-Policy with the configured bus addresses
// in connect-src, nosniff and the referrer policy, while /api/ and the admin UI keep PocketBase's own
// headers; in chromium, with the policy enforced (no bypass), an owner walks every screen of the
// navigation and reloads a deep link: the browser reports no policy violation and no response >= 400.
import { describe, expect, it } from "vitest";
import { failedResponses, screenSettled, screenshot, signInThroughForm } from "../harness/browser";
import { useConsole } from "../harness/console";
import { PASSWORD } from "../harness/world";

const BUS_URLS = ["wss://bus-a.example.test:443/nats", "ws://127.0.0.1:9333"];
const { platform, world, ui } = useConsole({ PLATFORM_BUS_WEBSOCKET_URLS: BUS_URLS.join(" ") });

const directives = (policy: string | null) => new Map((policy ?? "").split(/;\s*/).filter(Boolean).map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("the console's headers", () => {
  for (const path of ["/", "/things", "/settings/bus-identity?x=1"]) {
    it(`${path} carries the policy with the bus addresses`, async () => {
      const response = await fetch(`${platform.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      const policy = directives(response.headers.get("content-security-policy"));
      expect(policy.get("connect-src")).toEqual(["'self'", ...BUS_URLS]);
      expect(policy.get("default-src")).toEqual(["'self'"]);
      expect(policy.get("script-src")).toEqual(["'self'"]);
      expect(policy.get("style-src")).toEqual(["'self'"]);
      expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    });
  }

  it("an asset carries them too", async () => {
    const index = await (await fetch(`${platform.url}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${platform.url}${script}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("connect-src 'self'");
  });

  it("/api/ and the admin UI keep PocketBase's headers", async () => {
    for (const path of ["/api/health", "/api/no-such-route"]) {
      const response = await fetch(`${platform.url}${path}`);
      expect(response.headers.get("content-security-policy"), path).toBeNull();
      expect(response.headers.get("referrer-policy"), path).toBeNull();
    }
    // The admin UI sends a policy of its own (its map tiles, inline styles), untouched by ours.
    const admin = await fetch(`${platform.url}/_/`);
    expect(admin.headers.get("content-security-policy")).toContain("'unsafe-inline'");
    expect(directives(admin.headers.get("content-security-policy")).get("connect-src")).not.toContain(BUS_URLS[0]);
    expect(admin.headers.get("referrer-policy")).toBeNull();
  });
});

describe("every screen of an owner under the policy", () => {
  it("records no violation and no response >= 400", async () => {
    // No bypassCSP: the policy is enforced as a visitor's browser would.
    const context = await ui.browser.newContext({ baseURL: platform.url });
    // Registered before any page script runs; page.addInitScript is not subject to the page's policy.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const page = await context.newPage();
    const failures = failedResponses(page);
    const reported: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) reported.push(message.text());
    });
    const violations = async () => [...reported, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))];

    await page.goto("/signin");
    await signInThroughForm(page, world.users.owner.email as string, PASSWORD);
    await page.waitForURL("**/things");
    await screenSettled(page, "Things");

    const nav = page.getByRole("navigation", { name: "Main" });
    const titles = await nav.getByRole("link").allTextContents();
    expect(titles.length).toBeGreaterThan(5);
    for (const title of titles) {
      await nav.getByRole("link", { name: title, exact: true }).click();
      await screenSettled(page, title);
      expect(await violations(), `on ${title}`).toEqual([]);
    }
    // A deep link loaded afresh: the index fallback's page, its chunks and stylesheets under the policy.
    const deep = new URL(page.url());
    await page.reload();
    await page.waitForURL(deep.href);
    await page.locator('main[aria-busy="false"]').waitFor();
    await screenshot(page, "csp-owner-deep-link");
    expect(await violations(), "after reloading a deep link").toEqual([]);
    expect(failures).toEqual([]);
    // The listeners do see a violation: an inline style attribute is refused and reported.
    await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<p style="color: red">inline</p>'));
    await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
    await context.close();
  });
});
