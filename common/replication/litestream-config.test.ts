import { describe, expect, it } from "vitest";
import { busReplicaUrl, renderLitestreamConfig } from "./litestream-config";

describe("renderLitestreamConfig", () => {
  it("names the database and an operator's replica URL, with the sync interval", () => {
    expect(renderLitestreamConfig({ dbPath: "/srv/pb_data/data.db", replica: { kind: "url", url: "s3://backups/records" }, syncInterval: "1s", metricsAddr: "" })).toBe(
      [
        "# Written by serve from replication.* at each start (pb_hooks_src/replication/); edits are lost.",
        'shutdown-sync-timeout: "5s"',
        "dbs:",
        '  - path: "/srv/pb_data/data.db"',
        '    monitor-interval: "250ms"',
        "    replica:",
        '      url: "s3://backups/records"',
        '      sync-interval: "1s"',
        "",
      ].join("\n"),
    );
  });

  it("reaches the bus's object store through every node, as the replication identity", () => {
    const text = renderLitestreamConfig({
      dbPath: "/d/data.db",
      replica: { kind: "bus", servers: ["nats://10.0.0.1:4222", "tls://u:p@10.0.0.2:4222"], bucket: "platform-records", credsPath: "/d/.replication/replica.creds" },
      syncInterval: "500ms",
      metricsAddr: "127.0.0.1:9091",
    });
    expect(text).toContain('addr: "127.0.0.1:9091"');
    expect(text).toContain('url: "nats://10.0.0.1:4222,10.0.0.2:4222/platform-records"');
    expect(text).toContain('creds: "/d/.replication/replica.creds"');
    expect(text).not.toContain("u:p");
    expect(text).not.toContain("tls: true");
  });

  it("speaks TLS to a hub whose URLs are tls://", () => {
    const replica = { kind: "bus" as const, servers: ["tls://10.0.0.1:4222"], bucket: "b", credsPath: "/c", tls: true };
    expect(renderLitestreamConfig({ dbPath: "/d/data.db", replica, syncInterval: "1s", metricsAddr: "" })).toContain("      tls: true\n");
  });

  it("quotes every value, so a path with YAML's special characters stays one string", () => {
    expect(renderLitestreamConfig({ dbPath: '/srv/a: b #c/"x"/data.db', replica: { kind: "url", url: "file:///r" }, syncInterval: "1s", metricsAddr: "" })).toContain(
      '  - path: "/srv/a: b #c/\\"x\\"/data.db"',
    );
  });
});

describe("busReplicaUrl", () => {
  it("keeps host and port of each server, without scheme, userinfo or path", () => {
    expect(busReplicaUrl(["nats://127.0.0.1:4222"], "b")).toBe("nats://127.0.0.1:4222/b");
    expect(busReplicaUrl(["nats://a:1/x", "nats://[::1]:2"], "b")).toBe("nats://a:1,[::1]:2/b");
  });
});
