// bus.log_to_console and overlay.log_to_console (spec 8.3, "verbose logging"): a line on serve's output
// for each committed write of the credential records and each claim publication, and no secret in any.
import { describe, expect, it } from "vitest";
import { usePlatform } from "../harness/platform";
import { buildWorld, useWorld } from "../harness/world";

describe("with bus.log_to_console and overlay.log_to_console on", () => {
  const { platform, world: w } = useWorld({ env: { PLATFORM_BUS_LOG_TO_CONSOLE: "true", PLATFORM_OVERLAY_LOG_TO_CONSOLE: "true" } });

  it("serve logs each credential record's write by name and key, and each publication, without a secret", async () => {
    const log = platform.log();
    const user = await w.su.collection("bus_users").getOne(w.a.bus_users.id);
    const host = await w.su.collection("overlay_hosts").getOne(w.a.overlay_hosts.id);
    expect(log).toContain(`bus: user "${user.name}" (key ${user.public_key}) created: active`);
    expect(log).toMatch(/bus: account A\w+ of organization \w+ created: active/);
    expect(log).toMatch(/bus: claim of account A\w+ \(active\) published: not confirmed/);
    expect(log).toContain(`overlay: network "${w.a.overlay_networks.name}" ${w.a.overlay_networks.cidr}`);
    expect(log).toContain(`overlay: host "${host.name}" ${host.overlay_ip} created: active, certificate ${host.fingerprint}`);
    expect(log).toMatch(/overlay: CA \w+ of organization \w+ created/);
    for (const secret of [user.jwt, user.creds_file.split("\n")[1], host.config_yaml, host.cert]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/SU[A-Z2-7]{50,}|PRIVATE KEY/);
  });
});

describe("with both off (the default)", () => {
  const platform = usePlatform();

  it("serve logs none of it", async () => {
    await buildWorld(platform);
    expect(platform.log()).not.toMatch(/bus: user|bus: account|bus: claim|overlay: (CA|network|host) /);
  });
});
