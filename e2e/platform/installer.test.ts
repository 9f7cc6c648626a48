// PocketBase's first-run installer printed a link with a token able to create SuperUsers into serve's
// log while none existed; the platform turns it off (tenancy/installer.ts).
import { describe, expect, it } from "vitest";
import { usePlatform } from "../harness/platform";
import { sqlite } from "../harness/sqlite";

const PLACEHOLDER = "__pbinstaller@example.com";
const superusers = (dataDir: string) => sqlite(dataDir, "SELECT email FROM _superusers;");

/** Waits out the installer, which PocketBase runs in a goroutine once serve listens. */
const installerTurn = () => new Promise((r) => setTimeout(r, 1_500));

describe("a platform served before any SuperUser exists", () => {
  const platform = usePlatform(() => ({ superuser: false }));

  it("logs how to create one, and no installer link or token", async () => {
    await installerTurn();
    expect(platform.log()).not.toContain("pbinstall");
    expect(platform.log()).toContain("No SuperUser yet");
    expect(superusers(platform.dataDir)).toBe("");
  });

  it("removes a placeholder an earlier start left, so its tokens die with it", async () => {
    sqlite(platform.dataDir, `INSERT INTO _superusers (id, email, emailVisibility, verified, password, tokenKey, created, updated)
      VALUES ('installer000001', '${PLACEHOLDER}', 0, 1, 'x', 'key-of-an-earlier-start', '2026-01-01 00:00:00.000Z', '2026-01-01 00:00:00.000Z');`);
    const earlier = platform.log().length;
    await platform.restart();
    await installerTurn();
    expect(platform.log().slice(earlier)).not.toContain("pbinstall");
    expect(superusers(platform.dataDir)).toBe("");
  });
});
