import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentConfigSources } from "../config/load";
import { installService } from "./install";
import { quoteArgument, renderUnit } from "./unit";

const dir = mkdtempSync(join(tmpdir(), "agent-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sources(files: Record<string, string>, configPath?: string): AgentConfigSources {
  return { env: {}, configPath, cwd: "/srv/agent", readFile: (path) => files[path] };
}

describe("renderUnit", () => {
  it("runs node with the agent's node flags, the bundle and the config, restarts on failure after a pause", () => {
    const unit = renderUnit({ nodePath: "/usr/bin/node", bundlePath: "/opt/agent/agent.mjs", configPath: "/etc/iot-agent/agent.yaml", user: false });
    expect(unit).toContain("ExecStart=/usr/bin/node --max-semi-space-size=1 /opt/agent/agent.mjs run --config /etc/iot-agent/agent.yaml\n");
    expect(unit).toContain("Restart=on-failure\nRestartSec=5s\n");
    expect(unit).toContain("WantedBy=multi-user.target\n");
    expect(renderUnit({ nodePath: "/n", bundlePath: "/b", user: true })).toContain("ExecStart=/n --max-semi-space-size=1 /b run\n");
  });

  it("quotes arguments systemd would split or expand", () => {
    expect(quoteArgument("/opt/my agent/a.mjs")).toBe('"/opt/my agent/a.mjs"');
    expect(quoteArgument('/x/"q"\\')).toBe('"/x/\\"q\\"\\\\"');
    expect(quoteArgument("/x/100%")).toBe("/x/100%%");
  });
});

describe("installService", () => {
  it("writes the unit naming the discovered config by its absolute path, with no secret in it", async () => {
    const files = { "/srv/agent/agent.yaml": "observability:\n  metrics_token: s3cret-token\n" };
    const path = await installService({ sources: sources(files), user: true, unitDir: dir, nodePath: "/usr/bin/node", bundlePath: "dist/agent.mjs" });
    expect(path).toBe(join(dir, "iot-agent.service"));
    const unit = readFileSync(path, "utf8");
    expect(unit).toContain("ExecStart=/usr/bin/node --max-semi-space-size=1 /srv/agent/dist/agent.mjs run --config /srv/agent/agent.yaml\n");
    expect(unit).not.toContain("s3cret");
    expect(statSync(path).mode & 0o777).toBe(0o644);
  });

  it("refuses a config the agent would refuse, writing nothing", async () => {
    const other = join(dir, "other");
    const files = { "/srv/agent/agent.yaml": "bogus: 1\n" };
    await expect(installService({ sources: sources(files), user: true, unitDir: other, nodePath: "/n", bundlePath: "/b" })).rejects.toThrow('unknown key "bogus"');
    expect(() => statSync(other)).toThrow();
  });
});
