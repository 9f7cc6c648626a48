// The agent bundle as a real process (agent/dist/agent.mjs): configuration by AGENT_* variables and
// agent.yaml, /ready and /metrics, promtool accepting a scrape, a port already taken, a refused config,
// a clean stop on SIGTERM, `service install`; and the agent's reference alerts of spec 4.3 evaluated by
// `promtool test rules` (docs/alerts/agent-rules.test.yml).
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_NODE_FLAGS } from "../../agent/src/service/node-flags";
import { AGENT_BUNDLE, startAgent, type AgentProcess } from "../harness/agent";
import { freePort } from "../harness/ports";
import { REPO_ROOT } from "../harness/process";

const PROMTOOL = "/usr/bin/promtool";
const TOKEN = "agent-metrics-token-0123456789";
const scratch = mkdtempSync(join(tmpdir(), "agent-core-e2e-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function promtool(args: string[], input?: string): { code: number; output: string } {
  const result = spawnSync(PROMTOOL, args, { input, encoding: "utf8" });
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

const bearer = (token: string) => `Bearer ${token}`;
const basic = (user: string, token: string) => `Basic ${Buffer.from(`${user}:${token}`).toString("base64")}`;

async function until<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("agent run", () => {
  let agent: AgentProcess;
  let url: string;
  let port: number;
  let stateDir: string;

  beforeAll(async () => {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    stateDir = join(scratch, "state");
    agent = startAgent(["run"], {
      env: {
        AGENT_STATE_DIR: stateDir,
        AGENT_OBSERVABILITY_ADDR: `127.0.0.1:${port}`,
        AGENT_OBSERVABILITY_METRICS_TOKEN: TOKEN,
        AGENT_OBSERVABILITY_INTERVAL: "1s",
        AGENT_TELEMETRY_INTERVAL: "1s",
      },
      cwd: scratch,
    });
    await agent.waitForLog((line) => line.msg === "observability listening");
  });
  afterAll(async () => agent?.stop());

  it("answers /ready from its snapshot: not probed at first, then an unenrolled agent's report (bus fails with the remedy: 503)", async () => {
    const first = await fetch(`${url}/ready`);
    const firstBody = (await first.json()) as { state: string };
    // The first probe starts right after the listener; the not-probed answer is caught only if it comes first.
    expect(first.status).toBe(503);
    if (firstBody.state === "unprobed") expect(firstBody).toMatchObject({ ready: false, checked: null, checks: [] });
    expect(first.headers.get("cache-control")).toBe("no-store");
    const { status, body } = await until(async () => {
      const answer = await fetch(`${url}/ready`);
      const json = (await answer.json()) as { state: string; checks: Array<{ name: string; state: string; detail?: string }> };
      const sampled = json.checks.find((c) => c.name === "task_metrics")?.detail === undefined;
      return json.state !== "unprobed" && sampled ? { status: answer.status, body: json } : undefined;
    }, 10_000);
    expect(status).toBe(503);
    expect(body).toMatchObject({
      ready: false,
      state: "fail",
      version: expect.any(String),
      checks: [
        { name: "bus", state: "fail", detail: expect.stringContaining("not enrolled"), fix: expect.stringContaining("agent enroll") },
        { name: "overlay", state: "skipped" },
        { name: "persistence", state: "skipped" },
        { name: "platform_sync", state: "warn", detail: expect.stringContaining("not enrolled"), fix: expect.stringContaining("agent enroll") },
        { name: "task_metrics", state: "ok" },
      ],
    });
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
  });

  it("requires the metrics token by Bearer or Basic, and promtool accepts the scrape", async () => {
    for (const authorization of [undefined, bearer("wrong"), basic("prometheus", "wrong"), TOKEN]) {
      const answer = await fetch(`${url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Basic realm="metrics"');
    }
    let scraped = "";
    for (const authorization of [bearer(TOKEN), basic("prometheus", TOKEN)]) {
      const answer = await fetch(`${url}/metrics`, { headers: { authorization } });
      expect(answer.status).toBe(200);
      scraped = await answer.text();
    }
    expect(scraped).toContain("agent_ready 1");
    expect(scraped).toContain('agent_check_state{name="task_metrics",state="ok"} 1');
    expect(scraped).toMatch(/^agent_check_timestamp_seconds \d/m);
    expect(scraped).toMatch(/^agent_build_info\{version="[^"]+"\} 1$/m);
    expect(existsSync(PROMTOOL), "promtool missing: run scripts/test-deps.sh").toBe(true);
    const checked = promtool(["check", "metrics"], scraped);
    expect(checked.code, checked.output).toBe(0);
  });

  it("keeps running when its port is taken, logging the bind failure", async () => {
    const second = startAgent(["run"], {
      env: { AGENT_STATE_DIR: join(scratch, "second"), AGENT_OBSERVABILITY_ADDR: `127.0.0.1:${port}`, AGENT_OBSERVABILITY_INTERVAL: "1s" },
      cwd: scratch,
    });
    try {
      const failure = await second.waitForLog((line) => line.level === "error" && String(line.msg).includes("could not bind"));
      expect(failure).toMatchObject({ addr: `127.0.0.1:${port}`, error: expect.stringContaining("EADDRINUSE") });
      // Checks still run and log without a listener.
      await second.waitForLog((line) => line.msg === "check state changed" && line.check === "task_metrics");
      expect(second.child.exitCode).toBeNull();
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it("stops cleanly on SIGTERM with status 0", async () => {
    const status = await agent.stop();
    expect(status).toBe(0);
    expect(agent.logs.map((line) => line.msg)).toContain("agent stopped");
    await expect(fetch(`${url}/ready`)).rejects.toThrow();
  });
});

describe("an agent whose log pipe closes", () => {
  it("keeps probing and stops on SIGTERM with status 0, unlogged", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...AGENT_NODE_FLAGS, AGENT_BUNDLE, "run"], {
      env: { ...process.env, AGENT_STATE_DIR: join(scratch, "unlogged"), AGENT_OBSERVABILITY_ADDR: `127.0.0.1:${port}`, AGENT_OBSERVABILITY_INTERVAL: "500ms" },
      cwd: scratch,
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      // The reader of the log goes away after the first line, as a restarting log shipper's does.
      await new Promise<void>((resolve) => child.stderr?.once("data", () => resolve()));
      child.stderr?.destroy();
      const checkedAt = async () => ((await (await fetch(`http://127.0.0.1:${port}/ready`)).json()) as { checked: string | null }).checked ?? undefined;
      const first = await until(checkedAt, 10_000);
      const later = await until(async () => {
        const checked = await checkedAt();
        return checked && checked > first ? checked : undefined;
      }, 10_000);
      expect(later > first).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
    // A wedged agent ignores the SIGTERM: it is killed after 10 s and the test fails on its status.
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const [code] = (await once(child, "exit")) as [number | null];
    clearTimeout(killer);
    expect(code).toBe(0);
  }, 40_000);
});

describe("agent configuration", () => {
  it("refuses an unknown key of agent.yaml naming its dotted path, with a non-zero status", async () => {
    const config = join(scratch, "typo.yaml");
    writeFileSync(config, "observability:\n  adress: 127.0.0.1:9100\n");
    const agent = startAgent(["run", "--config", config], { env: { AGENT_STATE_DIR: join(scratch, "typo") } });
    expect(await agent.exited).toBe(1);
    expect(agent.stderr()).toBe(`agent: configuration refused: ${config}: unknown key "observability.adress"\n`);
  });

  it("reads ./agent.yaml with AGENT_* beating it; an empty addr means no listener", async () => {
    writeFileSync(join(scratch, "agent.yaml"), `state_dir: ${join(scratch, "from-file")}\nobservability:\n  addr: 127.0.0.1:1\n  interval: 1s\n`);
    try {
      const agent = startAgent(["run"], { env: { AGENT_OBSERVABILITY_ADDR: "" }, cwd: scratch });
      try {
        await agent.waitForLog((line) => line.msg === "observability listener off (observability.addr is empty)");
        const starting = await agent.waitForLog((line) => line.msg === "agent starting");
        expect(starting.state_dir).toBe(join(scratch, "from-file"));
        await agent.waitForLog((line) => line.msg === "check state changed");
      } finally {
        expect(await agent.stop()).toBe(0);
      }
    } finally {
      rmSync(join(scratch, "agent.yaml"));
    }
  });

  it("answers unknown commands and flags with status 2 and a clear message", async () => {
    const command = startAgent(["frobnicate"]);
    expect(await command.exited).toBe(2);
    expect(command.stderr()).toBe('agent: unknown command "frobnicate" (see agent help)\n');
    const flag = startAgent(["run", "--verbose"]);
    expect(await flag.exited).toBe(2);
    expect(flag.stderr()).toBe("agent run: unknown flag --verbose\n");
  });

  it("gateway reconfigure refuses a directory with no applied leaf configuration, with status 1, and creates nothing", async () => {
    const missing = join(scratch, "no-such-gateway");
    const command = startAgent(["gateway", "reconfigure", "--state-dir", missing]);
    expect(await command.exited).toBe(1);
    expect(command.stderr()).toBe(
      `agent: ${missing} holds no applied leaf configuration (${join(missing, "gateway", "applied.json")}): not a gateway's state directory, or reconfigured already and not refreshed since; nothing was changed\n`,
    );
    expect(existsSync(missing)).toBe(false);
  });
});

describe("agent service install", () => {
  it("writes a unit running this bundle with the config's absolute path, without secrets", async () => {
    const config = join(scratch, "service.yaml");
    writeFileSync(config, `observability:\n  metrics_token: ${TOKEN}\n`);
    const unitDir = join(scratch, "units");
    const install = startAgent(["service", "install", "--user", "--config", config, "--unit-dir", unitDir]);
    expect(await install.exited).toBe(0);
    const unit = readFileSync(join(unitDir, "iot-agent.service"), "utf8");
    expect(unit).toContain(`ExecStart=${process.execPath} --max-semi-space-size=1 ${AGENT_BUNDLE} run --config ${config}\n`);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^RestartSec=\d+s$/m);
    expect(unit).not.toContain(TOKEN);
  });
});

describe("agent reference alerts (spec 4.3)", () => {
  it("evaluate as documented in docs/alerts/agent-rules.test.yml", () => {
    const result = promtool(["test", "rules", join(REPO_ROOT, "docs/alerts/agent-rules.test.yml")]);
    expect(result.code, result.output).toBe(0);
  });
});

