import { describe, expect, it } from "vitest";
import { EXPORT_LAYOUT, exportInput, exportNodes, type ExportFlags } from "./export-options";
import { natsServerConfig, quote, ServerConfigError, type ServerConfigInput } from "./server-config";
import { clientPortOf, jetstreamDomainOf, serverUrlPort, ServerPortError } from "./server-port";

const SYS = `A${"B".repeat(55)}`;
const JWT = "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";

const input: ServerConfigInput = {
  serverName: "bus-hub",
  host: "127.0.0.1",
  port: 4222,
  websocketPort: 9222,
  leafnodePort: 7422,
  monitorHost: "127.0.0.1",
  monitorPort: 8222,
  operatorJwt: JWT,
  systemAccountPub: SYS,
  systemAccountJwt: JWT,
  resolverDir: "resolver",
  jetstreamDir: "jetstream",
  domain: "hub",
};

describe("natsServerConfig", () => {
  it("writes every block the hub needs", () => {
    const text = natsServerConfig(input);
    for (const line of [
      'server_name: "bus-hub"',
      'host: "127.0.0.1"',
      "port: 4222",
      'http: "127.0.0.1:8222"',
      `operator: "${JWT}"`,
      `system_account: "${SYS}"`,
      "  type: full",
      '  dir: "resolver"',
      "  allow_delete: true",
      '  interval: "2s"',
      `  "${SYS}": "${JWT}"`,
      '  store_dir: "jetstream"',
      '  domain: "hub"',
      "  max_file_store: 1125899906842624",
      "  max_memory_store: 1125899906842624",
      "  port: 9222",
      "  no_tls: true",
      "  port: 7422",
    ]) {
      expect(text.split("\n")).toContain(line);
    }
    expect(text).toMatch(/websocket \{\n {2}host: "127\.0\.0\.1"\n {2}port: 9222\n {2}no_tls: true\n\}/);
    expect(text).toMatch(/leafnodes \{\n {2}host: "127\.0\.0\.1"\n {2}port: 7422\n\}/);
    expect(text).toMatch(/resolver_preload \{\n {2}"A[B]{55}": "eyJ/);
  });

  it("brackets an IPv6 monitoring address", () => {
    expect(natsServerConfig({ ...input, monitorHost: "::1" })).toContain('http: "[::1]:8222"');
  });

  it("escapes quotes, backslashes, braces and control characters in paths", () => {
    const text = natsServerConfig({ ...input, jetstreamDir: 'a"b\\c}{\nd\te\x01 $HOME #x', resolverDir: "/srv/bus/resolver" });
    expect(text).toContain('  store_dir: "a\\"b\\\\c}{\\nd\\te\\x01 $HOME #x"');
    expect(text).toContain('  dir: "/srv/bus/resolver"');
    // Still exactly one store_dir line: the newline did not escape into the file.
    expect(text.split("\n").filter((l) => l.includes("store_dir"))).toHaveLength(1);
  });

  it("refuses a domain that could break out of its value or is no subject token", () => {
    for (const domain of ['hub"\n}', "hub}", "a.b", "a b", "a*", "a>", "", "x".repeat(65), "hub\n"]) {
      expect(() => natsServerConfig({ ...input, domain }), JSON.stringify(domain)).toThrow(ServerConfigError);
    }
  });

  it("refuses hostile names, hosts, keys and JWTs", () => {
    const bad: Partial<ServerConfigInput>[] = [
      { serverName: "bus hub" },
      { serverName: 'a"' },
      { host: "127.0.0.1\n}" },
      { host: "" },
      { monitorHost: "0.0.0.0 #" },
      { systemAccountPub: `U${"B".repeat(55)}` },
      { systemAccountPub: `${SYS}"` },
      { operatorJwt: "/etc/operator.jwt" },
      { operatorJwt: `${JWT}"\nport: 1` },
      { systemAccountJwt: "not a jwt" },
      { resolverDir: "" },
    ];
    for (const override of bad) expect(() => natsServerConfig({ ...input, ...override }), JSON.stringify(override)).toThrow(ServerConfigError);
  });

  it("refuses ports out of range or shared by two listeners", () => {
    expect(() => natsServerConfig({ ...input, port: 0 })).toThrow("between 1 and 65535");
    expect(() => natsServerConfig({ ...input, websocketPort: 70000 })).toThrow("between 1 and 65535");
    expect(() => natsServerConfig({ ...input, leafnodePort: 1.5 })).toThrow("between 1 and 65535");
    expect(() => natsServerConfig({ ...input, monitorPort: 4222 })).toThrow("monitor port 4222 is also the port");
  });
});

describe("quote", () => {
  it("escapes exactly what the nats-server lexer unescapes", () => {
    expect(quote("plain")).toBe('"plain"');
    expect(quote('"\\')).toBe('"\\"\\\\"');
    expect(quote("\r\n\t\x7f\x00")).toBe('"\\r\\n\\t\\x7f\\x00"');
    expect(quote("ünï {}$#")).toBe('"ünï {}$#"');
  });
});

describe("exportInput", () => {
  const flags: ExportFlags = { out: "out", port: "", websocketPort: "", leafnodePort: "", monitorPort: "", host: "", monitorHost: "", domain: "", serverName: "", nodes: "", clusterPort: "", nodeHosts: "" };
  const operator = { operatorJwt: JWT, systemAccountPub: SYS, systemAccountJwt: JWT };
  const config = { serverUrl: "nats://localhost:4333", persistDomain: "hub" };

  it("takes the client port from bus.server_url and documented defaults for the rest", () => {
    expect(exportInput(flags, config, operator)).toEqual({
      ...input,
      port: 4333,
      resolverDir: EXPORT_LAYOUT.resolverDir,
      jetstreamDir: EXPORT_LAYOUT.jetstreamDir,
    });
  });

  it("lets flags override every default", () => {
    const result = exportInput(
      { ...flags, port: "5000", websocketPort: "5001", leafnodePort: "5002", monitorPort: "5003", host: "0.0.0.0", monitorHost: "10.0.0.1", domain: "edge", serverName: "n1" },
      config,
      operator,
    );
    expect(result).toMatchObject({ port: 5000, websocketPort: 5001, leafnodePort: 5002, monitorPort: 5003, host: "0.0.0.0", monitorHost: "10.0.0.1", domain: "edge", serverName: "n1" });
  });

  it("refuses a port flag that is not a port", () => {
    for (const port of ["abc", "0", "65536", "-1", "80a", "1e3"]) {
      expect(() => exportInput({ ...flags, port }, config, operator), port).toThrow("--port");
    }
  });
});

describe("exportNodes", () => {
  const flags: ExportFlags = { out: "out", port: "", websocketPort: "", leafnodePort: "", monitorPort: "", host: "", monitorHost: "", domain: "", serverName: "", nodes: "", clusterPort: "", nodeHosts: "" };
  const operator = { operatorJwt: JWT, systemAccountPub: SYS, systemAccountJwt: JWT };
  const config = { serverUrl: "nats://localhost:4222", persistDomain: "hub" };

  it("writes one server in --out itself, with no cluster block, by default and for --nodes 1", () => {
    for (const nodes of ["", "1"]) {
      const [single, ...rest] = exportNodes({ ...flags, nodes }, config, operator);
      expect(rest).toEqual([]);
      expect(single).toEqual({ folder: "", input: exportInput(flags, config, operator) });
      expect(natsServerConfig(single.input)).not.toContain("cluster {");
    }
  });

  it("writes three nodes on one host with every port stepped and routes to the two others", () => {
    const nodes = exportNodes({ ...flags, nodes: "3" }, config, operator);
    expect(nodes.map((n) => n.folder)).toEqual(["node-1", "node-2", "node-3"]);
    expect(nodes.map((n) => [n.input.serverName, n.input.port, n.input.websocketPort, n.input.leafnodePort, n.input.monitorPort, n.input.cluster?.port])).toEqual([
      ["bus-hub-1", 4222, 9222, 7422, 8222, 6222],
      ["bus-hub-2", 4223, 9223, 7423, 8223, 6223],
      ["bus-hub-3", 4224, 9224, 7424, 8224, 6224],
    ]);
    expect(nodes[1].input.cluster).toEqual({ name: "bus-hub", host: "127.0.0.1", port: 6223, routes: ["127.0.0.1:6222", "127.0.0.1:6224"] });
    for (const node of nodes) expect(node.input.domain).toBe("hub");
    const text = natsServerConfig(nodes[0].input);
    expect(text).toMatch(/cluster \{\n {2}name: "bus-hub"\n {2}host: "127\.0\.0\.1"\n {2}port: 6222\n {2}routes: \[\n {4}"nats-route:\/\/127\.0\.0\.1:6223"\n {4}"nats-route:\/\/127\.0\.0\.1:6224"\n {2}\]\n\}/);
    expect(text).toContain('server_name: "bus-hub-1"');
  });

  it("keeps the same ports on nodes of their own addresses, and brackets an IPv6 route", () => {
    const nodes = exportNodes({ ...flags, nodes: "3", nodeHosts: "10.0.0.1, 10.0.0.2,fd00::3", clusterPort: "7000" }, config, operator);
    expect(nodes.map((n) => [n.input.host, n.input.port, n.input.cluster?.port])).toEqual([
      ["10.0.0.1", 4222, 7000],
      ["10.0.0.2", 4222, 7000],
      ["fd00::3", 4222, 7000],
    ]);
    expect(nodes[0].input.cluster?.routes).toEqual(["10.0.0.2:7000", "[fd00::3]:7000"]);
    expect(natsServerConfig(nodes[0].input)).toContain('"nats-route://[fd00::3]:7000"');
  });

  it("keeps monitoring on loopback: the node's own loopback address, else 127.0.0.1 of its machine", () => {
    const onLoopback = exportNodes({ ...flags, nodes: "3", nodeHosts: "127.0.0.1,127.0.0.2,127.0.0.3" }, config, operator);
    expect(onLoopback.map((n) => [n.input.host, n.input.monitorHost, n.input.monitorPort, n.input.port])).toEqual([
      ["127.0.0.1", "127.0.0.1", 8222, 4222],
      ["127.0.0.2", "127.0.0.2", 8222, 4222],
      ["127.0.0.3", "127.0.0.3", 8222, 4222],
    ]);
    expect(exportNodes({ ...flags, nodes: "3", nodeHosts: "10.0.0.1,10.0.0.2,10.0.0.3" }, config, operator).map((n) => n.input.monitorHost)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
    expect(exportNodes({ ...flags, nodes: "3", nodeHosts: "127.0.0.1,127.0.0.2,127.0.0.3", monitorHost: "127.0.0.9" }, config, operator)[1].input.monitorHost).toBe("127.0.0.9");
  });

  it("refuses two nodes with the reason, and any count but 1 or an odd number from 3", () => {
    expect(() => exportNodes({ ...flags, nodes: "2" }, config, operator)).toThrow(/--nodes 2 is refused: two nodes have no majority/);
    for (const nodes of ["0", "4", "6", "11", "x", "3.0", "-3"]) {
      expect(() => exportNodes({ ...flags, nodes }, config, operator), nodes).toThrow(/--nodes .* must be 1 or an odd number/);
    }
    expect(exportNodes({ ...flags, nodes: "5" }, config, operator)).toHaveLength(5);
  });

  it("refuses a host list that does not name every node, and stepped ports that meet", () => {
    expect(() => exportNodes({ ...flags, nodes: "3", nodeHosts: "a,b" }, config, operator)).toThrow(/names 2 addresses for 3 nodes/);
    expect(() => exportNodes({ ...flags, nodes: "3", nodeHosts: "a,,c" }, config, operator)).toThrow(/--node-hosts/);
    // Node 2's client port (4223) is node 1's websocket port.
    expect(() => exportNodes({ ...flags, nodes: "3", websocketPort: "4223" }, config, operator)).toThrow(/bus-hub-2's client port 4223 on 127\.0\.0\.1 is also bus-hub-1's websocket port/);
    expect(() => exportNodes({ ...flags, nodes: "3", clusterPort: "99999" }, config, operator)).toThrow("--cluster-port");
    expect(() => exportNodes({ ...flags, nodeHosts: "a,b,c", clusterPort: "7000" }, config, operator)).toThrow(
      "--node-hosts and --cluster-port describe a cluster: add --nodes 3 (or another odd number), or leave them out",
    );
  });

  it("writes a cluster block nats-server cannot misread", () => {
    const node = exportNodes({ ...flags, nodes: "3" }, config, operator)[0].input;
    const bad: NonNullable<ServerConfigInput["cluster"]>[] = [
      { ...node.cluster!, name: 'a"b' },
      { ...node.cluster!, host: "x\n}" },
      { ...node.cluster!, routes: ['h:1"\n'] },
      { ...node.cluster!, port: node.port },
    ];
    for (const cluster of bad) expect(() => natsServerConfig({ ...node, cluster }), JSON.stringify(cluster)).toThrow(ServerConfigError);
  });
});

describe("clientPortOf", () => {
  it("reads top-level port or listen, and defaults to 4222", () => {
    expect(clientPortOf("port: 4333\n")).toBe(4333);
    expect(clientPortOf("port = 4333")).toBe(4333);
    expect(clientPortOf("port 4333 # client")).toBe(4333);
    expect(clientPortOf('listen: "0.0.0.0:4444"')).toBe(4444);
    expect(clientPortOf("listen: 127.0.0.1:4445")).toBe(4445);
    expect(clientPortOf('listen: "[::1]:4446"')).toBe(4446);
    expect(clientPortOf("listen: 4447")).toBe(4447);
    expect(clientPortOf('"port": 4448')).toBe(4448);
    expect(clientPortOf("PORT: 4449")).toBe(4449);
    expect(clientPortOf("server_name: x\n")).toBe(4222);
  });

  it("skips ports inside blocks, arrays, strings and comments", () => {
    const text = [
      "# port: 1",
      "// port: 2",
      'server_name: "port: 3"',
      "websocket {",
      "  port: 9222",
      "  nested { port: 4 }",
      "}",
      "leafnodes { port: 7422 }",
      "routes = [",
      "  nats://x:5",
      "]",
      'authorization { token: "}" }',
      "port: 4555",
      "cluster {",
      "  port: 6222",
      "}",
    ].join("\n");
    expect(clientPortOf(text)).toBe(4555);
    expect(clientPortOf("websocket { port: 9222 }\n")).toBe(4222);
  });

  it("reads an exported config", () => {
    expect(clientPortOf(natsServerConfig({ ...input, port: 4999 }))).toBe(4999);
  });

  it("takes the last of repeated keys, as nats-server does", () => {
    expect(clientPortOf("port: 1000\nport: 2000")).toBe(2000);
  });

  it("refuses what it cannot know", () => {
    expect(() => clientPortOf("port: $PORT")).toThrow(ServerPortError);
    expect(() => clientPortOf("port: -1")).toThrow(ServerPortError);
    expect(() => clientPortOf('port: "4222"')).toThrow(ServerPortError);
    expect(() => clientPortOf("port: 70000")).toThrow(ServerPortError);
    expect(() => clientPortOf("port: 4222\nlisten: 4333")).toThrow("disagree");
    expect(() => clientPortOf("include ./ports.conf")).toThrow("include");
  });
});

describe("serverUrlPort", () => {
  it("reads the port of a bus URL and defaults to 4222", () => {
    expect(serverUrlPort("nats://localhost:4222")).toBe(4222);
    expect(serverUrlPort("nats://127.0.0.1:5333")).toBe(5333);
    expect(serverUrlPort("tls://user:pw@bus.example.com:7000/")).toBe(7000);
    expect(serverUrlPort("nats://[::1]:4999")).toBe(4999);
    expect(serverUrlPort("nats://bus.example.com")).toBe(4222);
    expect(() => serverUrlPort("localhost:4222")).toThrow(ServerPortError);
  });
});

describe("jetstreamDomainOf", () => {
  it("reads the domain of the top-level jetstream block, as bus export writes it", () => {
    expect(jetstreamDomainOf(natsServerConfig(input))).toBe("hub");
    expect(jetstreamDomainOf("jetstream {\n  domain: site-1\n}")).toBe("site-1");
    expect(jetstreamDomainOf("jetstream: { domain = 'x' }")).toBe("x");
    expect(jetstreamDomainOf('"jetstream" { store_dir: "a { b"\n domain: "y" }')).toBe("y");
  });

  it("answers blank without a domain, and skips domains outside the jetstream block or in comments", () => {
    expect(jetstreamDomainOf("port: 4222\n")).toBe("");
    expect(jetstreamDomainOf("jetstream: enabled\n")).toBe("");
    expect(jetstreamDomainOf("leafnodes { remotes: [ { domain: a } ] }\njetstream { # domain: b\n store_dir: j }")).toBe("");
    expect(jetstreamDomainOf("jetstream { nested { domain: c } }")).toBe("");
  });

  it("refuses a variable it cannot resolve", () => {
    expect(() => jetstreamDomainOf("jetstream { domain: $D }")).toThrow(ServerPortError);
  });
});
