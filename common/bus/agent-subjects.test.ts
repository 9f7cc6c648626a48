import { describe, expect, it } from "vitest";
import { agentSubjects } from "./agent-subjects";

describe("agentSubjects", () => {
  it("puts everything under <prefix>.<code>", () => {
    expect(agentSubjects("agents", "SENS-0001")).toEqual({
      heartbeat: "agents.SENS-0001.heartbeat",
      telemetry: "agents.SENS-0001.telemetry",
      telemetryOfAll: "agents.*.telemetry",
      command: { health: "agents.SENS-0001.cmd.health", ping: "agents.SENS-0001.cmd.ping", rotateCreds: "agents.SENS-0001.cmd.rotate_creds" },
      commands: "agents.SENS-0001.cmd.*",
    });
    expect(agentSubjects("site.agents", "x").heartbeat).toBe("site.agents.x.heartbeat");
  });

  it("refuses wildcards, blanks and dots where one token is expected", () => {
    for (const prefix of ["", "a.>", "a.*", "a..b", "a b"]) expect(() => agentSubjects(prefix, "x"), prefix).toThrow(/bus.subject_prefix/);
    for (const code of ["", "a.b", "*", ">"]) expect(() => agentSubjects("agents", code), code).toThrow(/Thing code/);
  });
});
