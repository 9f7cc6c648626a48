import { describe, expect, it } from "vitest";
import { checksWhileWaiting, connectedVia, contactStage, heartbeatOf } from "./first-contact";

describe("a new Thing's first contact", () => {
  it("is alive at its first heartbeat, at the hub once its identity connects, else waiting while the browser watches", () => {
    expect(contactStage(true, true, {})).toBe("waiting");
    expect(contactStage(true, false, {})).toBe("cannot-watch");
    expect(contactStage(false, true, {})).toBe("no-bus-identity");
    expect(contactStage(true, true, { atHub: { at: 1, via: "client" } })).toBe("at-hub");
    expect(contactStage(true, false, { atHub: { at: 1, via: "client" }, heartbeat: { at: 2, version: "1", state: "ok" } })).toBe("alive");
  });

  it("reads how the identity is connected from the hub's connections; unknown is not connected", () => {
    const seen = { leaf: new Set(["UGATE"]), client: new Set(["UDEV"]) };
    expect([connectedVia(seen, "UGATE"), connectedVia(seen, "UDEV"), connectedVia(seen, "UNONE"), connectedVia(null, "UDEV"), connectedVia(seen, null)]).toEqual(["leaf", "client", null, null, null]);
  });

  it("reads a heartbeat leniently", () => {
    expect(heartbeatOf(JSON.stringify({ version: "1.2.3", uptime: "1s", time: "t", state: "unprobed" }))).toEqual({ version: "1.2.3", state: "unprobed" });
    expect(heartbeatOf("not json")).toEqual({ version: "", state: "" });
  });

  it("names the control plane's URL, the Thing code and the bus host in what to check", () => {
    const checks = checksWhileWaiting("https://fleet.example", "TH-1").join("\n");
    for (const part of ["curl -fsS https://fleet.example/api/health", "as root", "enrolled Thing TH-1", "agent run", "date -u", "port 4222 of fleet.example"]) expect(checks).toContain(part);
  });
});
