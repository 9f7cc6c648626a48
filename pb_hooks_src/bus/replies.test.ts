import { describe, expect, it } from "vitest";
import { clusterClaimsOutcome, confirmedNodes, parseClaimsReply } from "./replies";

describe("parseClaimsReply", () => {
  it("reads a confirmation", () => {
    expect(parseClaimsReply(`{"server":{},"data":{"code":200,"account":"A","message":"jwt updated"}}`)).toEqual({ ok: true, message: "jwt updated" });
  });
  it("reads a refusal", () => {
    expect(parseClaimsReply(`{"error":{"code":500,"description":"not trusted"}}`)).toEqual({ ok: false, message: "not trusted" });
  });
  it("treats garbage as unconfirmed", () => {
    expect(parseClaimsReply("nope").ok).toBe(false);
  });
});

describe("clusterClaimsOutcome", () => {
  const ok = (name: string) => JSON.stringify({ server: { name }, data: { code: 200, message: "jwt updated" } });
  const refused = (name: string) => JSON.stringify({ server: { name }, error: { code: 500, description: "bad jwt" } });

  it("is confirmed when every node up confirmed it, and names them", () => {
    expect(clusterClaimsOutcome(["n2", "n1", "n3"], [ok("n3"), ok("n1"), ok("n2")], 3)).toEqual({ ok: true, message: "confirmed by 3 of 3 nodes: n1, n2, n3" });
  });

  it("says how many nodes are down when every node up confirmed it", () => {
    expect(clusterClaimsOutcome(["n1", "n3"], [ok("n1"), ok("n3")], 3)).toEqual({
      ok: true,
      message: "confirmed by 2 of 3 nodes: n1, n3 (every node up; 1 down, pushed to it when it is back)",
    });
  });

  it("is not confirmed when a node up refused it or did not answer", () => {
    expect(clusterClaimsOutcome(["n1", "n2", "n3"], [ok("n1"), refused("n2")], 3)).toEqual({
      ok: false,
      message: "n2 refused it: bad jwt; n3 did not answer; confirmed by 1 of 3 nodes: n1",
    });
    expect(clusterClaimsOutcome(["n1"], [], 3)).toEqual({ ok: false, message: "n1 did not answer; confirmed by 0 of 3 nodes" });
  });
});

describe("confirmedNodes", () => {
  const ok = (name: string) => JSON.stringify({ server: { name }, data: { code: 200, message: "jwt updated" } });

  it("reads back the nodes an outcome names, whatever follows them", () => {
    expect(confirmedNodes(clusterClaimsOutcome(["n1", "n2", "n3"], [ok("n1"), ok("n2"), ok("n3")], 3).message)).toEqual(["n1", "n2", "n3"]);
    expect(confirmedNodes(clusterClaimsOutcome(["n1", "n3"], [ok("n1"), ok("n3")], 3).message)).toEqual(["n1", "n3"]);
    expect(confirmedNodes(clusterClaimsOutcome(["n1", "n2"], [ok("n1")], 3).message)).toEqual(["n1"]);
  });

  it("names none for a status no cluster wrote", () => {
    for (const status of ["", "jwt updated", "the bus has not confirmed it: nothing listens", "n1 did not answer; confirmed by 0 of 3 nodes"]) {
      expect(confirmedNodes(status)).toEqual([]);
    }
  });
});
