// GET /metrics of the control plane (spec 4.3) against the real PocketBase and nats-server: the token
// rule, the series after known actions, route patterns and status classes, exact counters under
// concurrency, the embedded-bus series under `serve --bus` only, a failing database collector, promtool
// accepting real scrapes, and the reference alerts of docs/alerts/platform-rules.yml evaluated by
// `promtool test rules` on series built from real scrapes.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { startPlatform, type Platform } from "../harness/platform";
import { freePorts } from "../harness/ports";
import { processesWithArgument, REPO_ROOT } from "../harness/process";
import { buildWorld, type World } from "../harness/world";
import { sqlite } from "../harness/sqlite";

const TOKEN = "metrics-token-for-the-tests-0123";
const RULES = join(REPO_ROOT, "docs/alerts/platform-rules.yml");
const PROMTOOL = "/usr/bin/promtool";
const FAST_PROBES = { PLATFORM_READINESS_INTERVAL: "1s" };
const scratch = mkdtempSync(join(tmpdir(), "metrics-e2e-"));

interface Scrape {
  status: number;
  headers: Headers;
  text: string;
  /** Unix seconds when the response arrived. */
  at: number;
}

async function scrape(url: string, authorization?: string): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
  return { status: response.status, headers: response.headers, text: await response.text(), at: Date.now() / 1000 };
}

const bearer = (token: string) => `Bearer ${token}`;
const basic = (user: string, token: string) => `Basic ${Buffer.from(`${user}:${token}`).toString("base64")}`;

/** Sample lines as `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    map.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return map;
}

const value = (text: string, series: string) => samples(text).get(series);
const names = (text: string) => new Set([...samples(text).keys()].map((s) => s.replace(/[{].*$/, "")));

function promtool(args: string[], input?: string): { code: number; output: string } {
  const result = spawnSync(PROMTOOL, args, { input, encoding: "utf8" });
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return condition();
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const readyStatus = async (url: string) => (await fetch(`${url}/api/ready`)).status;

describe("promtool", () => {
  it("is installed (scripts/test-deps.sh installs the prometheus package)", () => {
    expect(existsSync(PROMTOOL), "promtool missing: run scripts/test-deps.sh as root or apt-get install prometheus").toBe(true);
    expect(promtool(["check", "rules", RULES]).code).toBe(0);
  });

  it("evaluates the replication alerts as docs/alerts/platform-rules.test.yml documents", () => {
    const result = promtool(["test", "rules", join(dirname(RULES), "platform-rules.test.yml")]);
    expect(result.code, result.output).toBe(0);
  });
});

describe("GET /metrics with a token and an external bus", () => {
  let bus: PlatformWithBus;
  let platform: Platform;
  let world: World;
  const auth = bearer(TOKEN);

  beforeAll(async () => {
    bus = await startPlatformWithBus({ env: { PLATFORM_METRICS_TOKEN: TOKEN, ...FAST_PROBES } });
    platform = bus.platform;
    const bootstrapped = await platform.command(["bootstrap", "--email", "operator@example.test", "--password", "operator-password-1"]);
    if (bootstrapped.code !== 0) throw new Error(`bootstrap failed: ${bootstrapped.stdout}${bootstrapped.stderr}`);
    world = await buildWorld(platform);
  }, 180_000);
  afterAll(async () => bus?.stop());

  it("answers 401 with the Basic challenge and a short body when the token is missing or wrong", async () => {
    for (const authorization of [undefined, bearer("wrong"), basic("prometheus", "wrong"), `Basic ${Buffer.from(TOKEN).toString("base64")}`, TOKEN]) {
      const answer = await scrape(platform.url, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Basic realm="metrics"');
      expect(answer.text).toBe("metrics token required\n");
    }
  });

  it("accepts Bearer and Basic with any username, in the text exposition format", async () => {
    for (const authorization of [bearer(TOKEN), basic("prometheus", TOKEN), basic("", TOKEN)]) {
      const answer = await scrape(platform.url, authorization);
      expect(answer.status, authorization).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(answer.text).toContain("platform_build_info{version=");
      expect(answer.text).not.toContain(TOKEN);
    }
  });

  it("counts rows per collection by canonical name, and inactive things", async () => {
    const before = (await scrape(platform.url, auth)).text;
    const things = value(before, 'platform_records{collection="things"}') ?? NaN;
    const inactive = value(before, 'platform_inactive_records{collection="things"}') ?? NaN;
    expect(things).toBe((await world.su.collection("things").getList(1, 1)).totalItems);
    const organization = world.a.organization.id;
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await world.su.collection("things").create({ organization, name: `metered ${i}`, active: true, password: world.thingPassword, passwordConfirm: world.thingPassword }));
    await world.su.collection("things").update(created[0].id, { active: false });

    const after = (await scrape(platform.url, auth)).text;
    expect(value(after, 'platform_records{collection="things"}')).toBe(things + 3);
    expect(value(after, 'platform_inactive_records{collection="things"}')).toBe(inactive + 1);
    expect(value(after, 'platform_records{collection="organizations"}')).toBe((await world.su.collection("organizations").getList(1, 1)).totalItems);
    expect(value(after, "platform_database_size_bytes")).toBeGreaterThan(0);
    // No per-organization label anywhere (rule 1).
    expect(after).not.toMatch(/organization="/);
  });

  it("counts bus user keys on revocation lists", async () => {
    const before = value((await scrape(platform.url, auth)).text, "platform_bus_users_revoked") ?? NaN;
    const user = await world.su.collection("bus_users").update(world.b.bus_users.id, { active: false });
    const account = await world.su.collection("bus_accounts").getOne(world.b.bus_accounts.id);
    expect(Object.keys(account.revocations as Record<string, number>)).toContain(user.public_key);
    expect(value((await scrape(platform.url, auth)).text, "platform_bus_users_revoked")).toBe(before + 1);
  });

  it("labels requests with route patterns, never raw paths, and classes statuses", async () => {
    const route = "/api/collections/{collection}/records/{id}";
    const series = (status: string) => `platform_http_requests_total{route="${route}",method="GET",status="${status}"}`;
    const before = (await scrape(platform.url, auth)).text;
    const thing = world.a.things.id;
    const token = world.su.authStore.token;
    expect((await fetch(`${platform.url}/api/collections/things/records/${thing}`, { headers: { Authorization: token } })).status).toBe(200);
    expect((await fetch(`${platform.url}/api/collections/things/records/nosuchrecord123`, { headers: { Authorization: token } })).status).toBe(404);
    // A hook route answering with a thrown ApiError (no session: 401).
    const createThing = 'platform_http_requests_total{route="/api/org/things",method="POST",status="4xx"}';
    expect((await fetch(`${platform.url}/api/org/things`, { method: "POST" })).status).toBe(401);

    // No route matches: an unknown API path (its catch-all answers 404; other unknown paths get the console's
    // page) and a known path under another method; both fall back to "other", never to their raw path.
    const other = 'platform_http_requests_total{route="other",method="GET",status="4xx"}';
    const otherDelete = 'platform_http_requests_total{route="other",method="DELETE",status="4xx"}';
    expect((await fetch(`${platform.url}/api/no/such/path-${thing}`)).status).toBe(404);
    expect((await fetch(`${platform.url}/api/ready`, { method: "DELETE" })).status).toBe(404);

    const after = (await scrape(platform.url, auth)).text;
    expect((value(after, other) ?? 0) - (value(before, other) ?? 0)).toBe(1);
    expect((value(after, otherDelete) ?? 0) - (value(before, otherDelete) ?? 0)).toBe(1);
    expect((value(after, series("2xx")) ?? 0) - (value(before, series("2xx")) ?? 0)).toBe(1);
    expect((value(after, series("4xx")) ?? 0) - (value(before, series("4xx")) ?? 0)).toBe(1);
    expect((value(after, createThing) ?? 0) - (value(before, createThing) ?? 0)).toBe(1);
    expect(after).not.toContain(thing);
    expect(after).not.toContain("nosuchrecord123");
    const routes = [...after.matchAll(/route="([^"]*)"/g)].map((m) => m[1]);
    expect(routes.length).toBeGreaterThan(0);
    for (const label of routes) expect(label === "other" || label.startsWith("/"), label).toBe(true);
    // The sidecar's internal routes (its start announcement, the prober's) are not service traffic.
    expect(after).not.toContain("/api/platform/");
    const statuses = new Set([...after.matchAll(/status="([^"]*)"/g)].map((m) => m[1]));
    for (const status of statuses) expect(["2xx", "3xx", "4xx", "5xx", "unknown"]).toContain(status);
  });

  it("counts 200 parallel requests exactly, across the hook VMs", async () => {
    const counter = 'platform_http_requests_total{route="/api/health",method="GET",status="2xx"}';
    const count = 'platform_http_request_duration_seconds_count{route="/api/health",method="GET"}';
    const before = (await scrape(platform.url, auth)).text;
    const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(`${platform.url}/api/health`).then((r) => r.status)));
    expect(answers.every((s) => s === 200)).toBe(true);
    const after = (await scrape(platform.url, auth)).text;
    expect((value(after, counter) ?? 0) - (value(before, counter) ?? 0)).toBe(200);
    expect((value(after, count) ?? 0) - (value(before, count) ?? 0)).toBe(200);
    expect(value(after, 'platform_http_request_duration_seconds_bucket{route="/api/health",method="GET",le="+Inf"}')).toBe(value(after, count));
  });

  it("counts GET /api/ready, which the global middleware answers itself, and keeps its successes out of the request log", async () => {
    const counter = (status: string) => `platform_http_requests_total{route="/api/ready",method="GET",status="${status}"}`;
    const before = (await scrape(platform.url, auth)).text;
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${platform.url}/api/ready`).then(async (r) => ({ status: r.status, body: (await r.json()) as { checks?: unknown[] } }))));
    expect(answers.every((a) => a.status === 200 && a.body.checks?.length === 10), JSON.stringify(answers[0])).toBe(true);
    const after = (await scrape(platform.url, auth)).text;
    expect((value(after, counter("2xx")) ?? 0) - (value(before, counter("2xx")) ?? 0)).toBe(20);

    // A failed request is logged; once it shows, the log has been written past the probes (PocketBase
    // writes its request log in batches).
    const since = new Date(Date.now() - 1_000).toISOString().replace("T", " ");
    const marker = `ready-log-marker-${Date.now()}`;
    expect((await fetch(`${platform.url}/api/no/such/${marker}`)).status).toBe(404);
    const logged = (filter: string) => world.su.logs.getList(1, 1, { filter: world.su.filter(`created >= {:since} && ${filter}`, { since }) }).then((page) => page.totalItems);
    expect(await until(async () => (await logged(`data.url ~ "${marker}"`)) === 1, 15_000), "the marker request never reached the request log").toBe(true);
    const readyLogs = await world.su.logs.getList(1, 5, { filter: world.su.filter(`created >= {:since} && data.method = "GET" && data.url = "/api/ready"`, { since }) });
    expect(readyLogs.totalItems, JSON.stringify(readyLogs.items)).toBe(0);
  });

  it("has no embedded-bus series with an external bus", async () => {
    const text = (await scrape(platform.url, auth)).text;
    expect([...names(text)].filter((n) => n.startsWith("platform_bus_") && n !== "platform_bus_users_revoked")).toEqual([]);
  });

  it("serves a scrape promtool accepts, with every series of 4.3 a ready platform has", async () => {
    expect(await until(async () => (await readyStatus(platform.url)) === 200, 30_000)).toBe(true);
    const text = (await scrape(platform.url, auth)).text;
    const checked = promtool(["check", "metrics"], text);
    expect(checked.output).toBe("");
    expect(checked.code).toBe(0);
    for (const name of [
      "platform_ready", "platform_check_state", "platform_check_timestamp_seconds", "platform_build_info", "platform_records",
      "platform_inactive_records", "platform_bus_users_revoked", "platform_database_size_bytes", "platform_certificates",
      "platform_certificates_expired", "platform_certificates_expiring", "platform_certificate_expiry_seconds",
      "platform_http_requests_total", "platform_http_request_duration_seconds_bucket", "platform_collector_errors",
    ]) expect(names(text), name).toContain(name);
    expect(value(text, "platform_ready")).toBe(1);
    expect(value(text, "platform_collector_errors")).toBe(0);
    expect([...samples(text).keys()].filter((s) => s.startsWith("platform_check_state{") && s.endsWith('state="ok"}'))).toHaveLength(10);
    // The world issued overlay certificates: one CA per organization, one active host each.
    expect(value(text, 'platform_certificates{kind="overlay_ca"}')).toBeGreaterThanOrEqual(2);
    expect(value(text, 'platform_certificates{kind="overlay_host"}')).toBeGreaterThanOrEqual(2);
  });

  it("fires no reference alert on a ready platform, PlatformProberWedged when the timestamp stops", async () => {
    expect(await until(async () => (await readyStatus(platform.url)) === 200, 30_000)).toBe(true);
    const ready = await scrape(platform.url, auth);
    expect(value(ready.text, "platform_ready")).toBe(1);
    const live = alertTest(ready, { proberLive: true }, 5 * 60, {
      PlatformNotReady: [], PlatformCheckFailing: [], PlatformProberWedged: [], PlatformHostCertificateExpiring: [], PlatformCaCertificateExpiring: [],
    });
    const wedged = alertTest(ready, { proberLive: false }, 5 * 60, { PlatformProberWedged: [{}], PlatformNotReady: [] });
    const result = runAlertTests([live, wedged]);
    expect(result.output).toContain("SUCCESS");
    expect(result.code, result.output).toBe(0);
  });

  it("fires the certificate alerts for a host certificate within 30 days and a CA within 90, while staying ready", async () => {
    // The expiry the prober's scan reads, moved (the API issues nothing that short-lived): 10 days ahead
    // for one active host, 60 for one CA.
    const sql = (statements: string) => sqlite(platform.dataDir, statements);
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace("T", " ");
    const saved = sql("SELECT id || '|' || not_after FROM overlay_ca LIMIT 1; SELECT id || '|' || not_after FROM overlay_hosts WHERE active = 1 LIMIT 1;")
      .split("\n").map((line) => line.split("|"));
    const [[caId, caNotAfter], [hostId, hostNotAfter]] = saved;
    sql(`UPDATE overlay_ca SET not_after = '${inDays(60)}' WHERE id = '${caId}'; UPDATE overlay_hosts SET not_after = '${inDays(10)}' WHERE id = '${hostId}';`);
    try {
      expect(await until(async () => {
        const text = (await scrape(platform.url, auth)).text;
        return value(text, 'platform_certificates_expiring{kind="overlay_host"}') === 1 && value(text, 'platform_certificates_expiring{kind="overlay_ca"}') === 1;
      }, 30_000)).toBe(true);
      const expiring = await scrape(platform.url, auth);
      expect(value(expiring.text, "platform_ready")).toBe(1);
      const result = runAlertTests([alertTest(expiring, { proberLive: true }, 60, {
        PlatformHostCertificateExpiring: [{ kind: "overlay_host" }],
        PlatformCaCertificateExpiring: [{ kind: "overlay_ca" }],
        PlatformNotReady: [],
      })]);
      expect(result.code, result.output).toBe(0);
    } finally {
      sql(`UPDATE overlay_ca SET not_after = '${caNotAfter}' WHERE id = '${caId}'; UPDATE overlay_hosts SET not_after = '${hostNotAfter}' WHERE id = '${hostId}';`);
    }
  });

  it("fires PlatformNotReady and PlatformCheckFailing{name=bus_reachable} once the bus server stops", async () => {
    await bus.stopNats();
    try {
      expect(await until(async () => (await readyStatus(platform.url)) === 503, 30_000)).toBe(true);
      const failing = await scrape(platform.url, auth);
      expect(value(failing.text, "platform_ready")).toBe(0);
      expect(value(failing.text, 'platform_check_state{name="bus_reachable",state="fail"}')).toBe(1);
      const failingChecks = [...samples(failing.text)].filter(([s, v]) => s.startsWith("platform_check_state{") && s.includes('state="fail"') && v === 1)
        .map(([s]) => /name="([^"]*)"/.exec(s)?.[1] ?? "");
      const result = runAlertTests([alertTest(failing, { proberLive: true }, 2 * 60, {
        PlatformNotReady: [{}],
        PlatformCheckFailing: failingChecks.map((name) => ({ name, state: "fail" })),
        PlatformProberWedged: [],
      })]);
      expect(result.code, result.output).toBe(0);
      // Not yet after 30 seconds: the alerts wait `for: 1m`.
      const early = runAlertTests([alertTest(failing, { proberLive: true }, 30, { PlatformNotReady: [] })]);
      expect(early.code, early.output).toBe(0);
    } finally {
      await bus.startNats();
    }
  });
});

// promtool test rules from real scrapes

const INSTANCE = { instance: "control-plane:8090", job: "platform" };
const INTERVAL_SECONDS = 15;
/** Input series long enough for the latest evaluation any test asks for. */
const STEPS = 40;
/** Series whose value is a Unix time: rebased on the scrape's time, since promtool evaluates from epoch 0. */
const TIMESTAMP_SERIES = ["platform_check_timestamp_seconds", "platform_certificate_expiry_seconds"];

interface AlertTest {
  interval: string;
  input_series: Array<{ series: string; values: string }>;
  alert_rule_test: Array<{ eval_time: string; alertname: string; exp_alerts: Array<{ exp_labels: Record<string, string>; exp_annotations: Record<string, string> }> }>;
}

/**
 * One promtool test group: every sample of the scrape as a constant series (labelled like a scrape target),
 * timestamps rebased so the scrape happened at t=0; with `proberLive` the probe timestamp advances with the
 * clock as a working prober's does. `expected` maps an alert to the extra labels of each alert expected.
 */
function alertTest(scraped: Scrape, options: { proberLive: boolean }, evalSeconds: number, expected: Record<string, Array<Record<string, string>>>): AlertTest {
  const input_series: AlertTest["input_series"] = [];
  for (const [series, v] of samples(scraped.text)) {
    const name = series.replace(/[{].*$/, "");
    const labels = series.slice(name.length);
    const withTarget = `${name}{${Object.entries(INSTANCE).map(([k, l]) => `${k}="${l}"`).join(",")}${labels ? `,${labels.slice(1, -1)}` : ""}}`;
    const isTimestamp = TIMESTAMP_SERIES.includes(name);
    const start = isTimestamp ? Math.round(v - scraped.at) : v;
    const advancing = name === "platform_check_timestamp_seconds" && options.proberLive;
    input_series.push({ series: withTarget, values: advancing ? `${start}+${INTERVAL_SECONDS}x${STEPS}` : `${start}x${STEPS}` });
  }
  const rules = yaml.load(readFileSync(RULES, "utf8")) as { groups: Array<{ rules: Array<{ alert: string; labels?: Record<string, string>; annotations?: Record<string, string> }> }> };
  const ruleOf = (alert: string) => rules.groups.flatMap((g) => g.rules).find((r) => r.alert === alert);
  return {
    interval: `${INTERVAL_SECONDS}s`,
    input_series,
    alert_rule_test: Object.entries(expected).map(([alertname, alerts]) => {
      const rule = ruleOf(alertname);
      if (!rule) throw new Error(`no rule ${alertname} in ${RULES}`);
      return {
        eval_time: `${evalSeconds}s`,
        alertname,
        exp_alerts: alerts.map((extra) => {
          const labels = { ...INSTANCE, ...extra };
          const template = (text: string) => text.replace(/\{\{\s*\$labels\.(\w+)\s*\}\}/g, (_, label: string) => labels[label as keyof typeof labels] ?? "");
          return {
            exp_labels: { ...labels, ...rule.labels },
            exp_annotations: Object.fromEntries(Object.entries(rule.annotations ?? {}).map(([k, t]) => [k, template(t)])),
          };
        }),
      };
    }),
  };
}

function runAlertTests(tests: AlertTest[]): { code: number; output: string } {
  const file = join(scratch, `rules-test-${Date.now()}-${Math.random().toString(36).slice(2)}.yml`);
  // JSON is YAML.
  writeFileSync(file, JSON.stringify({ rule_files: [RULES], evaluation_interval: `${INTERVAL_SECONDS}s`, tests }, null, 1));
  return promtool(["test", "rules", file]);
}

describe("request counting with a pool of two hook VMs", () => {
  // Most requests then run in one-off VMs that PocketBase builds and drops (plugins/jsvm/pool.go), and the
  // two pooled VMs count into maps of their own: every request must still be counted once.
  let platform: Platform;
  beforeAll(async () => {
    platform = await startPlatform({ env: { PB_HOOKS_POOL: "2" } });
  }, 120_000);
  afterAll(async () => platform?.stop());

  it("counts 300 parallel requests exactly, in pooled and one-off VMs alike", async () => {
    // Not bootstrapped, so /api/ready answers 503: two series, two status classes.
    const routes = [
      { route: "/api/health", status: 200, counter: 'platform_http_requests_total{route="/api/health",method="GET",status="2xx"}' },
      { route: "/api/ready", status: 503, counter: 'platform_http_requests_total{route="/api/ready",method="GET",status="5xx"}' },
    ];
    const count = (route: string) => `platform_http_request_duration_seconds_count{route="${route}",method="GET"}`;
    const before = (await scrape(platform.url)).text;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => fetch(`${platform.url}${routes[i % 2].route}`).then((r) => r.status)));
      expect(answers.filter((status, i) => status !== routes[i % 2].status)).toEqual([]);
    }
    const after = (await scrape(platform.url)).text;
    for (const { route, counter } of routes) {
      expect((value(after, counter) ?? 0) - (value(before, counter) ?? 0), route).toBe(150);
      expect((value(after, count(route)) ?? 0) - (value(before, count(route)) ?? 0), route).toBe(150);
      expect(value(after, `platform_http_request_duration_seconds_bucket{route="${route}",method="GET",le="+Inf"}`)).toBe(value(after, count(route)));
    }
  });
});

describe("GET /metrics open, and its collectors failing", () => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await startPlatform({ env: FAST_PROBES });
  }, 120_000);
  afterAll(async () => platform?.stop());

  it("is open when metrics.token is empty", async () => {
    const answer = await scrape(platform.url);
    expect(answer.status).toBe(200);
    expect(value(answer.text, "platform_collector_errors")).toBe(0);
  });

  it("drops the database series and counts a collector error while the things table is gone", async () => {
    const sql = (statements: string) => sqlite(platform.dataDir, statements);
    sql("ALTER TABLE things RENAME TO things_moved_away;");
    try {
      const text = (await scrape(platform.url)).text;
      expect(value(text, "platform_collector_errors")).toBe(1);
      for (const name of ["platform_records", "platform_inactive_records", "platform_bus_users_revoked", "platform_database_size_bytes"]) {
        expect(names(text), name).not.toContain(name);
      }
      expect(names(text)).toContain("platform_build_info");
      expect(promtool(["check", "metrics"], text).code).toBe(0);
    } finally {
      sql("ALTER TABLE things_moved_away RENAME TO things;");
    }
    const recovered = (await scrape(platform.url)).text;
    expect(value(recovered, "platform_collector_errors")).toBe(0);
    expect(value(recovered, 'platform_records{collection="things"}')).toBe(0);
  });

  it("drops the certificate series, without a collector error, while the certificate scan fails", async () => {
    const sql = (statements: string) => sqlite(platform.dataDir, statements);
    expect(await until(async () => names((await scrape(platform.url)).text).has("platform_certificates"), 30_000)).toBe(true);
    // A column only the certificate scan reads: the record counts of the database collector still work.
    sql("ALTER TABLE overlay_ca DROP COLUMN next_not_after;");
    try {
      expect(await until(async () => !names((await scrape(platform.url)).text).has("platform_certificates"), 30_000)).toBe(true);
      const text = (await scrape(platform.url)).text;
      for (const name of ["platform_certificates", "platform_certificates_expired", "platform_certificates_expiring", "platform_certificate_expiry_seconds"]) {
        expect(names(text), name).not.toContain(name);
      }
      expect(value(text, "platform_collector_errors")).toBe(0);
      expect(names(text)).toContain("platform_records");
    } finally {
      sql("ALTER TABLE overlay_ca ADD COLUMN next_not_after TEXT DEFAULT '' NOT NULL;");
    }
    expect(await until(async () => names((await scrape(platform.url)).text).has("platform_certificates"), 30_000)).toBe(true);
  });

  it("is not registered when metrics.enabled is false, while /api/ready still answers and the console keeps its headers", async () => {
    await platform.restart({ PLATFORM_METRICS_ENABLED: "false" });
    expect((await scrape(platform.url)).status).toBe(404);
    const ready = await fetch(`${platform.url}/api/ready`);
    expect([200, 503]).toContain(ready.status);
    expect(((await ready.json()) as { version?: string }).version).toBeTypeOf("string");
    // The console's headers share the global middleware with the counting (middleware.ts).
    const page = await fetch(`${platform.url}/`);
    expect(page.headers.get("content-security-policy")).toContain("default-src");
  });
});

describe("GET /metrics under serve --bus", () => {
  let platform: Platform;
  let configPath = "";
  beforeAll(async () => {
    const [port, websocket, leafnode, monitor] = await freePorts(4);
    platform = await startPlatform({ env: { PLATFORM_BUS_SERVER_URL: `nats://127.0.0.1:${port}`, ...FAST_PROBES } });
    const out = join(scratch, "embedded-bus");
    const exported = await platform.command([
      "bus", "export", "--out", out, "--port", String(port), "--websocket-port", String(websocket),
      "--leafnode-port", String(leafnode), "--monitor-port", String(monitor),
    ]);
    if (exported.code !== 0) throw new Error(`bus export failed: ${exported.stdout}${exported.stderr}`);
    configPath = join(out, "bus.conf");
    await platform.restart({ PLATFORM_BUS_EMBEDDED: "true", PLATFORM_BUS_EMBEDDED_CONFIG: configPath });
  }, 120_000);
  afterAll(async () => platform?.stop());

  it("reports the embedded server's figures from its varz", async () => {
    const text = (await scrape(platform.url)).text;
    expect(value(text, "platform_bus_embedded_up")).toBe(1);
    // The sidecar's system-user connection asking for varz is one of them.
    expect(value(text, "platform_bus_connections")).toBeGreaterThanOrEqual(1);
    expect(value(text, "platform_bus_cluster_routes")).toBe(0);
    expect(value(text, "platform_bus_leafnode_connections")).toBe(0);
    expect(value(text, "platform_bus_slow_consumers_total")).toBe(0);
    // Each scrape's varz request is a message in; its reply, a message out with the varz JSON, is counted
    // after the server answered, so the next scrape sees it.
    const msgs = (t: string, direction: string) => value(t, `platform_bus_msgs_total{direction="${direction}"}`) ?? NaN;
    // varz counts a reply once it is sent, so under load the very next scrape may not see it yet.
    let next = (await scrape(platform.url)).text;
    await until(async () => msgs((next = (await scrape(platform.url)).text), "out") > msgs(text, "out"), 5_000);
    expect(msgs(next, "in")).toBeGreaterThan(msgs(text, "in"));
    expect(msgs(next, "out")).toBeGreaterThan(msgs(text, "out"));
    expect(value(next, 'platform_bus_bytes_total{direction="out"}')).toBeGreaterThan(value(text, 'platform_bus_bytes_total{direction="out"}') ?? NaN);
    expect(value(next, 'platform_bus_bytes_total{direction="in"}')).toBeGreaterThanOrEqual(0);
    for (const tier of ["memory", "disk"]) expect(value(text, `platform_bus_persist_bytes{tier="${tier}"}`)).toBeGreaterThanOrEqual(0);
    expect(value(text, "platform_collector_errors")).toBe(0);
    expect(promtool(["check", "metrics"], text).code).toBe(0);
  });

  it("reports the child down, and nothing else of the bus, once nats-server has died", async () => {
    const natsPids = processesWithArgument(configPath).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0].endsWith("nats-server"));
    expect(natsPids.length).toBe(1);
    process.kill(natsPids[0], "SIGKILL");
    expect(await until(async () => value((await scrape(platform.url)).text, "platform_bus_embedded_up") === 0, 15_000)).toBe(true);
    const text = (await scrape(platform.url)).text;
    expect([...names(text)].filter((n) => n.startsWith("platform_bus_") && n !== "platform_bus_users_revoked")).toEqual(["platform_bus_embedded_up"]);
  });
});

