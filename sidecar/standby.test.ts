import { describe, expect, it } from "vitest";
import { UsageError, parseStandbyArgs } from "./standby";

describe("parseStandbyArgs", () => {
  it("reads the command, the creds file, every bus URL and the bucket", () => {
    expect(parseStandbyArgs(["standby", "--creds", "/r.creds", "--bus", "nats://a:4222 nats://b:4222", "--bucket", "records"], {})).toEqual({
      command: "standby",
      creds: "/r.creds",
      servers: ["nats://a:4222", "nats://b:4222"],
      bucket: "records",
      force: false,
    });
  });

  it("takes the bus and bucket from the platform's variables when not given", () => {
    expect(parseStandbyArgs(["promote", "--creds", "/r.creds"], { PLATFORM_BUS_SERVER_URL: "nats://a:4222", PLATFORM_REPLICATION_BUCKET: "b" })).toMatchObject({
      command: "promote",
      servers: ["nats://a:4222"],
      bucket: "b",
    });
    expect(parseStandbyArgs(["promote", "--creds", "/r.creds"], { PLATFORM_BUS_SERVER_URL: "nats://a:4222" }).bucket).toBe("platform-records");
  });

  it("takes --force for a promotion only", () => {
    expect(parseStandbyArgs(["promote", "--force", "--creds", "/r.creds", "--bus", "nats://a:4222"], {}).force).toBe(true);
    expect(() => parseStandbyArgs(["standby", "--force", "--creds", "/r.creds", "--bus", "nats://a:4222"], {})).toThrow('unexpected argument "--force"');
  });

  it("says every problem at once", () => {
    expect(() => parseStandbyArgs(["standby"], {})).toThrow(new UsageError("--creds is required; --bus (or PLATFORM_BUS_SERVER_URL) is required"));
    expect(() => parseStandbyArgs(["standby", "--creds", "c", "--bus", "http://x", "--bucket", "a.b"], {})).toThrow(
      '--bus "http://x" is not a nats:// URL; --bucket "a.b" must be letters, digits, - or _',
    );
    expect(() => parseStandbyArgs(["follow"], {})).toThrow('unknown command "follow"');
    expect(() => parseStandbyArgs(["standby", "--creds"], {})).toThrow('unexpected argument "--creds"');
  });
});
