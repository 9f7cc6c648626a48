import { describe, expect, it } from "vitest";
import { busOutcome } from "./checks";

describe("busOutcome", () => {
  it("is ok while connected, naming the server", () => {
    expect(busOutcome({ connected: true, server: "127.0.0.1:4222", since: 0 })).toEqual({ state: "ok", detail: "connected to 127.0.0.1:4222" });
  });

  it("fails while down, saying why, with a remedy", () => {
    const refused = busOutcome({ connected: false, kind: "refused", reason: "connection refused", since: 0 });
    expect(refused).toMatchObject({ state: "fail", detail: "refused: connection refused" });
    expect(refused.fix).toMatch(/bus.servers/);
    const denied = busOutcome({ connected: false, kind: "authorization", reason: "Authorization Violation", since: 0 });
    expect(denied).toMatchObject({ state: "fail", detail: "authorization: Authorization Violation" });
    expect(busOutcome({ connected: false, kind: "no_creds", reason: "no bus credentials yet", since: 0 })).toMatchObject({
      state: "fail",
      detail: "no bus credentials yet",
    });
  });
});
