// `agent enroll` (issue 10 item 2) against the real control plane: a Thing created through
// POST /api/org/things with a bus user and an overlay host, enrolled by the bundled agent with its
// password on stdin.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createThing, runAgent, type MadeThing } from "../harness/agent";
import { useWorld } from "../harness/world";

const { platform, world: w } = useWorld();
let scratch = "";
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "agent-enroll-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `agent enroll <args>` with `stdin` piped; bounded in time. */
const enroll = (args: string[], stdin: string) => runAgent(["enroll", ...args], stdin);

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe("agent enroll", () => {
  it("writes the creds file, the overlay config and the session, 0600 and without the password; a re-run is idempotent", async () => {
    const made = await createThing(w, { name: "enrolled", bus: { mode: "auto" }, overlay: { mode: "auto", network_id: w.a.overlay_networks.id, overlay_ip: "10.42.90.1" } });
    const stateDir = join(scratch, "full");
    const result = await enroll(["--platform", platform.url, "--email", made.email, "--state-dir", stateDir], `${made.password}\n`);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(`enrolled Thing ${made.code}`);

    const thing = await w.su.collection("things").getOne(made.id);
    const user = await w.su.collection("bus_users").getOne(thing.bus_user);
    const host = await (await w.client("owner")).collection("overlay_hosts").getOne(thing.overlay_host);
    expect(readFileSync(join(stateDir, "bus.creds"), "utf8")).toBe(user.creds_file);
    expect(readFileSync(join(stateDir, "overlay/config.yml"), "utf8")).toBe(host.config_yaml);
    const session = JSON.parse(readFileSync(join(stateDir, "session.json"), "utf8"));
    expect(session).toEqual({
      platform: platform.url,
      thing: { id: made.id, email: made.email, code: made.code, organization: w.a.organization.id },
      token: expect.any(String),
      token_expires: expect.any(Number),
    });
    // Spec 8.1: a Thing token lives 7 days.
    expect(Math.abs(session.token_expires - (Date.now() + 7 * 86_400_000))).toBeLessThan(120_000);

    const files = filesUnder(stateDir);
    expect(files.map((f) => f.slice(stateDir.length + 1)).sort()).toEqual(["bus.creds", "overlay/config.yml", "session.json"]);
    for (const file of files) {
      expect(statSync(file).mode & 0o777, file).toBe(0o600);
      expect(readFileSync(file, "utf8"), file).not.toContain(made.password);
    }
    expect(result.stdout + result.stderr).not.toContain(made.password);

    // The session's token works for the Thing's own identity.
    const me = await fetch(`${platform.url}/api/me/identity`, { headers: { Authorization: session.token } });
    expect(me.status).toBe(200);

    const again = await enroll(["--platform", `${platform.url}/`, "--email", made.email, "--state-dir", stateDir], made.password);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(stateDir, "bus.creds"), "utf8")).toBe(user.creds_file);
    expect(readFileSync(join(stateDir, "overlay/config.yml"), "utf8")).toBe(host.config_yaml);
    expect(JSON.parse(readFileSync(join(stateDir, "session.json"), "utf8")).platform).toBe(platform.url);
    expect(filesUnder(stateDir).length).toBe(3);

    // A new password set by an owner: the re-run with it keeps a consistent state.
    await w.su.collection("things").update(made.id, { password: "a-new-password-123", passwordConfirm: "a-new-password-123" });
    const renewed = await enroll(["--platform", platform.url, "--email", made.email, "--state-dir", stateDir], "a-new-password-123\n");
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(filesUnder(stateDir).length).toBe(3);
  });

  it("a Thing without identities gets a session only", async () => {
    const made = await createThing(w, { name: "bare" });
    const stateDir = join(scratch, "bare");
    const result = await enroll(["--platform", platform.url, "--email", made.email, "--state-dir", stateDir], made.password);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("no bus identity; no overlay host");
    expect(filesUnder(stateDir).map((f) => f.slice(stateDir.length + 1))).toEqual(["session.json"]);
  });

  it.each([
    ["a wrong password", (m: MadeThing) => ["--email", m.email], "wrong-password\n", /wrong e-mail or password/],
    ["an unknown e-mail", () => ["--email", "nobody@nowhere.thing.local"], "whatever\n", /wrong e-mail or password/],
    ["an empty stdin", (m: MadeThing) => ["--email", m.email], "", /no password on stdin/],
  ])("%s: a clear error, a non-zero exit, nothing written", async (_label, args, stdin, message) => {
    const made = await createThing(w, { name: "refused", bus: { mode: "auto" } });
    const stateDir = join(scratch, `refused-${Math.random().toString(36).slice(2)}`);
    const result = await enroll(["--platform", platform.url, ...args(made), "--state-dir", stateDir], stdin);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(existsSync(stateDir)).toBe(false);
  });

  it("a deactivated Thing and an unreachable platform: clear errors, nothing written", async () => {
    const made = await createThing(w, { name: "retired", bus: { mode: "auto" } });
    await w.su.collection("things").update(made.id, { active: false });
    const stateDir = join(scratch, "retired");
    const retired = await enroll(["--platform", platform.url, "--email", made.email, "--state-dir", stateDir], made.password);
    expect(retired.code).toBe(1);
    expect(retired.stderr).toMatch(/deactivated/);
    const unreachable = await enroll(["--platform", "http://127.0.0.1:1/", "--email", made.email, "--state-dir", stateDir], made.password);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/unreachable/);
    expect(existsSync(stateDir)).toBe(false);
  });

  it("refuses a password in argv and unknown flags (usage, exit 2)", async () => {
    const result = await enroll(["--platform", platform.url, "--email", "x@y", "--password", "secret"], "");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("never an argument");
  });
});
