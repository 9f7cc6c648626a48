// The fixture of a console browser test file (vitest only; benches use browser.ts alone).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Browser, Page } from "playwright-core";
import { CONSOLE_DIR, launchBrowser, seriousViolations } from "./browser";
import type { Platform } from "./platform";
import { useWorld, type World } from "./world";

/**
 * A browser test file's fixture: a real platform serving the built console (with `env` added), its seeded
 * world, and one Chromium for the file's tests (`ui.browser`, set before the first test).
 */
export function useConsole(env: Record<string, string> = {}): { platform: Platform; world: World; ui: { browser: Browser } } {
  if (!existsSync(join(CONSOLE_DIR, "index.html"))) throw new Error(`no built console in ${CONSOLE_DIR}: run make build`);
  const { platform, world } = useWorld({ env: { PB_PUBLIC_DIR: CONSOLE_DIR, ...env } });
  const ui = {} as { browser: Browser };
  beforeAll(async () => {
    ui.browser = await launchBrowser();
  });
  afterAll(async () => ui.browser?.close());
  return { platform, world, ui };
}

/** axe finds nothing serious or critical on `page` (`where` names the screen or dialog in a failure). */
export async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([]);
}
