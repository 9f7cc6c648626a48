import { describe, expect, it } from "vitest";
import { leafState, leafUsers } from "./leaf";

const KEY = "UABC";

describe("leaf attachment", () => {
  it("is attached when a Leafnode connection is authorized as the Thing's bus user", () => {
    const users = leafUsers([{ data: { connections: [{ kind: "Client", authorized_user: "UOTHER" }, { kind: "Leafnode", authorized_user: KEY }] } }]);
    expect(leafState(users, KEY)).toBe("attached");
  });
  it("is not attached when the hub answered and no leaf uplink is that user's (a plain client of it does not count)", () => {
    const users = leafUsers([{ data: { connections: [{ kind: "Client", authorized_user: KEY }] } }]);
    expect(leafState(users, KEY)).toBe("not-attached");
  });
  it("is unknown, never not attached, when no server answered or every answer is an error", () => {
    expect(leafState(leafUsers([]), KEY)).toBe("unknown");
    expect(leafState(leafUsers([{ error: { code: 500 } }]), KEY)).toBe("unknown");
  });
  it("is unknown when the Thing's bus user cannot be read", () => {
    expect(leafState(leafUsers([{ data: { connections: [] } }]), null)).toBe("unknown");
  });
  it("merges the answers of several servers of one cluster", () => {
    const users = leafUsers([{ data: { connections: [] } }, { data: { connections: [{ kind: "Leafnode", authorized_user: KEY }] } }]);
    expect(leafState(users, KEY)).toBe("attached");
  });
});
