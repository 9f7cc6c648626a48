import { describe, expect, it } from "vitest";
import { commandName } from "./command-line";
import { answersLikeNats, configTestArgs, dialHost, probeArgs, supervisorArgs, supervisorEnv } from "./supervisor";

describe("commandName", () => {
  const valued = new Set(["dir", "hooksDir", "config", "bus-config", "encryptionEnv"]);
  const takesValue = (flag: string) => valued.has(flag);

  it("finds the command past flags and their values", () => {
    expect(commandName(["serve", "--http", "x"], takesValue)).toBe("serve");
    expect(commandName(["--dev=false", "serve"], takesValue)).toBe("serve");
    expect(commandName(["--dir", "serve", "migrate", "up"], takesValue)).toBe("migrate");
    expect(commandName(["--bus", "--bus-config", "serve", "serve"], takesValue)).toBe("serve");
    expect(commandName(["--bus", "migrate", "serve"], takesValue)).toBe("migrate");
    expect(commandName(["--", "serve"], takesValue)).toBe("serve");
    expect(commandName(["--dev"], takesValue)).toBe("");
  });
});

describe("supervisor", () => {
  it("passes binary and config as arguments, never inside the script", () => {
    const args = supervisorArgs("/opt/bin/nats-server", "/srv/bus/bus.conf");
    expect(args[0]).toBe("-c");
    expect(args.slice(2)).toEqual(["bus-supervisor", "/opt/bin/nats-server", "/srv/bus/bus.conf"]);
    expect(supervisorArgs("nats-server", "bus.conf", ["--ports_file_dir", "/tmp/p"]).slice(3)).toEqual(["nats-server", "bus.conf", "--ports_file_dir", "/tmp/p"]);
    expect(args[1]).not.toContain("/srv/bus");
    expect(configTestArgs("/opt/bin/nats-server", "/srv/bus/bus.conf").slice(2)).toEqual(["/opt/bin/nats-server", "/srv/bus/bus.conf"]);
  });

  it("keeps the platform's own configuration out of nats-server's environment", () => {
    const env = supervisorEnv({ PATH: "/usr/bin", PLATFORM_BUS_ENCRYPTION_KEY: "k".repeat(32), NATS_TOKEN: "t", UNSET: undefined });
    expect(env).toEqual(["PATH=/usr/bin", "NATS_TOKEN=t"]);
  });

  it("dials the host of bus.server_url, or loopback for a wildcard", () => {
    expect(dialHost("nats://localhost:4222")).toBe("localhost");
    expect(dialHost("nats://0.0.0.0:4222")).toBe("127.0.0.1");
    expect(dialHost("nats://[::]:4222")).toBe("127.0.0.1");
    expect(dialHost("nats://[::1]:4222")).toBe("::1");
    expect(dialHost("tls://u:p@bus.example.com:4222")).toBe("bus.example.com");
  });

  it("probes with host and port as arguments, and takes only NATS's greeting as an answer", () => {
    expect(probeArgs("::1", 4222).slice(-2)).toEqual(["::1", "4222"]);
    expect(answersLikeNats("connected:INFO")).toBe(true);
    expect(answersLikeNats("connected:HTTP")).toBe(false);
    expect(answersLikeNats("connected:")).toBe(false);
    expect(answersLikeNats("")).toBe(false);
  });
});
