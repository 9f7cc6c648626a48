import { describe, expect, it } from "vitest";
import { distinctExchanges, exportsProblem, importsProblem, isContainedIn, renamingProblem, subjectProblem } from "./subjects";

const ACCOUNT = "A".repeat(56);

describe("subjectProblem", () => {
  it("takes subjects with wildcards, refuses empty tokens and whitespace", () => {
    for (const subject of ["orders", "orders.>", "orders.*.created", ">"]) expect(subjectProblem(subject)).toBeUndefined();
    for (const subject of ["", "a b", "a\tb", ".a", "a.", "a..b"]) expect(subjectProblem(subject), subject).toBeDefined();
  });
});

describe("isContainedIn (nats-io/jwt's rule)", () => {
  it.each([
    ["orders.eu", "orders.>", true],
    ["orders.>", "orders.>", true],
    ["orders.eu.x", "orders.*.x", true],
    ["orders", "orders.>", false],
    ["orders.>", "orders.eu", false],
    ["billing.eu", "orders.>", false],
  ])("%s in %s: %s", (subject, other, contained) => {
    expect(isContainedIn(subject, other)).toBe(contained);
  });
});

describe("renamingProblem", () => {
  it("needs the same tail and every wildcard used once", () => {
    expect(renamingProblem("partner.acme.>", "telemetry.>")).toBeUndefined();
    expect(renamingProblem("local.$1.x", "remote.*.x")).toBeUndefined();
    expect(renamingProblem("local.x", "remote.>")).toContain('must both end in ">"');
    expect(renamingProblem("local.$2", "remote.*")).toContain("refers to $2");
    expect(renamingProblem("local.x", "remote.*")).toContain("must use each");
    expect(renamingProblem("x y", "remote")).toContain("whitespace");
  });
});

describe("distinctExchanges", () => {
  it("keeps the first of rows that say the same thing", () => {
    const rows = [
      { name: "a", subject: "orders.>", kind: "stream" },
      { name: "b", subject: "orders.>", kind: "stream" },
      { name: "c", subject: "orders.>", kind: "service" },
      { name: "d", subject: "orders.>", kind: "stream", account: ACCOUNT },
    ];
    expect(distinctExchanges(rows).map((r) => r.name)).toEqual(["a", "c", "d"]);
  });
});

describe("exportsProblem", () => {
  it("refuses a subject covered by another export of the same kind; the same export twice is signed once", () => {
    expect(exportsProblem([{ subject: "orders.>", kind: "stream" }, { subject: "billing.>", kind: "stream" }])).toBeUndefined();
    expect(exportsProblem([{ subject: "orders.>", kind: "stream" }, { subject: "orders.>", kind: "service" }])).toBeUndefined();
    expect(exportsProblem([{ subject: "orders.>", kind: "stream" }, { subject: "orders.>", kind: "stream" }])).toBeUndefined();
    expect(exportsProblem([{ subject: "orders.>", kind: "stream" }, { subject: "orders.eu", kind: "stream" }])).toContain('"orders.>" already covers "orders.eu"');
    expect(exportsProblem([{ subject: "a b", kind: "stream" }])).toContain("whitespace");
  });
});

describe("importsProblem", () => {
  it("checks subjects, local subjects, and overlapping service imports from one account", () => {
    const stream = { subject: "telemetry.>", kind: "stream", account: ACCOUNT, localSubject: "partner.acme.>" };
    expect(importsProblem([stream, { ...stream }])).toBeUndefined();
    expect(importsProblem([{ ...stream, localSubject: "x y" }])).toContain("local_subject");
    expect(importsProblem([{ ...stream, subject: ".." }])).toContain("subject");
    const service = { subject: "rpc.>", kind: "service", account: ACCOUNT, localSubject: "" };
    expect(importsProblem([service, { ...service }])).toBeUndefined();
    expect(importsProblem([service, { ...service, subject: "rpc.eu" }])).toContain("overlap");
    expect(importsProblem([service, { ...service, account: "B".repeat(56) }])).toBeUndefined();
    expect(importsProblem([{ ...service, subject: "rpc.*", localSubject: "mine.$1" }, { ...service, subject: "other.x", localSubject: "mine.eu" }])).toContain("overlap");
  });
});
