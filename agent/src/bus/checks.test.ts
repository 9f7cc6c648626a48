import { describe, expect, it } from "vitest";
import { busOutcome } from "./checks";

describe("busOutcome", () => {
  it("is ok while connected, naming the server", () => {
    expect(busOutcome({ connected: true, server: "127.0.0.1:4222", since: 0 }, "hub")).toEqual({ state: "ok", detail: "connected to 127.0.0.1:4222" });
  });

  it("fails while down, saying why, with a remedy", () => {
    const refused = busOutcome({ connected: false, kind: "refused", reason: "connection refused", since: 0 }, "hub");
    expect(refused).toMatchObject({ state: "fail", detail: "refused: connection refused" });
    expect(refused.fix).toMatch(/bus.servers/);
    const denied = busOutcome({ connected: false, kind: "authorization", reason: "Authorization Violation", since: 0 }, "hub");
    expect(denied).toMatchObject({ state: "fail", detail: "authorization: Authorization Violation" });
    expect(busOutcome({ connected: false, kind: "no_creds", reason: "no bus credentials yet", since: 0 }, "hub")).toMatchObject({
      state: "fail",
      detail: "no bus credentials yet",
    });
    const connecting = busOutcome({ connected: false, kind: "connecting", reason: "first attempt in progress", since: 0 }, "hub");
    expect(connecting).toMatchObject({ state: "fail", detail: "connecting: first attempt in progress" });
    expect(connecting.fix).not.toMatch(/enroll/i);
  });

  it("on a gateway, points a refused or silent connection at the local leaf, not at the hub it does not dial", () => {
    for (const kind of ["refused", "timeout"] as const) {
      const outcome = busOutcome({ connected: false, kind, reason: "leaf unreachable", since: 0 }, "leaf");
      expect(outcome.state).toBe("fail");
      expect(outcome.fix).toMatch(/local leaf \(gateway\.listen\)/);
      expect(outcome.fix).toMatch(/bus_local/);
      expect(outcome.fix).not.toMatch(/bus\.servers|4222|hub/);
    }
    // The hub's remedy for an identity it refuses holds for a gateway too: its leaf enforces the hub's tokens.
    const denied = busOutcome({ connected: false, kind: "authorization", reason: "Authorization Violation", since: 0 }, "leaf");
    expect(denied.fix).toMatch(/reactivates it in the console/);
  });
});
