import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HealthRegistry } from "../health/registry";
import type { Logger } from "../lib/log";
import { createAgentMetrics } from "./metrics";
import { startObservabilityServer, type ObservabilityServer } from "./server";

const TOKEN = "agent-metrics-token:with-colon";
const lines: Array<Record<string, unknown>> = [];
const push = (level: string) => (msg: string, fields = {}) => void lines.push({ level, msg, ...fields });
const logger: Logger = { debug: push("debug"), info: push("info"), warn: push("warn"), error: push("error") };

let servers: ObservabilityServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  lines.length = 0;
});

async function start(addr = "127.0.0.1:0", metricsToken = TOKEN) {
  const health = new HealthRegistry({ version: "9.9.9", intervalMs: 60_000, logger });
  health.register({ name: "task_metrics", run: async () => ({ state: "ok" }) });
  const server = await startObservabilityServer({ addr, metricsToken, readiness: health, metrics: createAgentMetrics(health, "9.9.9"), logger });
  servers.push(server);
  return { health, server, url: `http://127.0.0.1:${server.port}` };
}

const basic = (user: string, token: string) => `Basic ${Buffer.from(`${user}:${token}`).toString("base64")}`;

describe("observability server", () => {
  it("serves /ready from the snapshot: 503 not probed, then 200, never cached", async () => {
    const { health, url } = await start();
    const before = await fetch(`${url}/ready`);
    expect(before.status).toBe(503);
    expect(before.headers.get("cache-control")).toBe("no-store");
    expect(await before.json()).toMatchObject({ state: "unprobed", checks: [] });
    await health.probe();
    const after = await fetch(`${url}/ready`);
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ ready: true, state: "ok", version: "9.9.9", checks: [{ name: "task_metrics", state: "ok" }] });
  });

  it("requires the metrics token by Bearer or Basic with any user name", async () => {
    const { health, url } = await start();
    for (const authorization of [undefined, "Bearer wrong", basic("prometheus", "wrong"), TOKEN]) {
      const answer = await fetch(`${url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Basic realm="metrics"');
    }
    const unprobed = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(unprobed).toContain("agent_ready 0");
    expect(unprobed).toContain('agent_build_info{version="9.9.9"} 1');
    expect(unprobed).not.toContain("agent_check_timestamp_seconds");
    await health.probe();
    for (const authorization of [`Bearer ${TOKEN}`, basic("", TOKEN), basic("anyone", TOKEN)]) {
      const answer = await fetch(`${url}/metrics`, { headers: { authorization } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const text = await answer.text();
      expect(text).toContain("agent_ready 1");
      expect(text).toContain('agent_check_state{name="task_metrics",state="ok"} 1');
      expect(text).toContain('agent_check_state{name="task_metrics",state="fail"} 0');
      expect(text).toMatch(/agent_check_timestamp_seconds \d+(\.\d+)?/);
      expect(text).not.toContain(TOKEN);
    }
  });

  it("is open without a token and answers 404 elsewhere, 405 to other methods", async () => {
    const { url } = await start("127.0.0.1:0", "");
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/ready/x`)).status).toBe(404);
    expect((await fetch(`${url}/ready`, { method: "POST" })).status).toBe(405);
  });

  it("has no listener with an empty addr, and logs a bind failure without throwing", async () => {
    expect((await start("")).server.port).toBeUndefined();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { server } = await start(`127.0.0.1:${port}`);
      expect(server.port).toBeUndefined();
      expect(lines).toContainEqual(expect.objectContaining({ level: "error", addr: `127.0.0.1:${port}`, error: expect.stringContaining("EADDRINUSE") }));
    } finally {
      taken.close();
    }
  });
});
