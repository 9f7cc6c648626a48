// Debian's chromium driven by playwright-core (no browser download; scripts/test-deps.sh installs it),
// with the checks every console screen goes through: the network log, axe-core and a screenshot.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { REPO_ROOT } from "./process";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The built console (make build); the e2e platform serves it as its public directory. */
export const CONSOLE_DIR = join(REPO_ROOT, "pb_public");
export const SCREENSHOTS_DIR = join(REPO_ROOT, "build/console-screenshots");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let axeSource: string | undefined;

export function launchBrowser(): Promise<Browser> {
  // Tests run as root in containers, where chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/**
 * Every response >= 400 the page receives from now on, as "STATUS METHOD URL", and every uncaught error
 * of its scripts, as "pageerror: message".
 */
export function failedResponses(page: Page): string[] {
  const failures: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on("pageerror", (error) => failures.push(`pageerror: ${error.message}`));
  return failures;
}

/** axe-core's serious and critical violations on the page as it stands, as "rule: target". */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the console's
  // Content-Security-Policy refuses inline script, and the tests run with it enforced.
  axeSource ??= readFileSync(AXE, "utf8");
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.targets.join(", ")}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Signs in through the console's form (the page must be on it). */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * A new page of `context`, signed in as `email` through the form, on `screen` opened through the main
 * navigation, with the log of its responses >= 400 (failedResponses).
 */
export async function openScreen(context: BrowserContext, email: string, password: string, screen: string): Promise<{ page: Page; failures: string[] }> {
  const page = await context.newPage();
  const failures = failedResponses(page);
  await page.goto("/signin");
  await signInThroughForm(page, email, password);
  await page.waitForURL((url) => url.pathname !== "/signin");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: screen, exact: true }).click();
  await screenSettled(page, screen);
  return { page, failures };
}

/** Waits until the screen titled `title` is shown and nothing is loading. */
export async function screenSettled(page: Page, title: string): Promise<void> {
  await page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor();
  await page.locator('main[aria-busy="false"]').waitFor();
}
