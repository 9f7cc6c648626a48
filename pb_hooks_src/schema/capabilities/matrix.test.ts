import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROLES, type Role } from "../../lib/roles";
import { platformCollections } from "../collections";
import { ALL_ROLES, CLOSED, all, anyOf, isOperator, memberListing, memberOf, unchanged } from "../rules";
import type { CollectionSpec, Rule } from "../spec";
import { MATRIX_COMMAND, MATRIX_DOC, capabilityDocument, cellText } from "./document";
import { capabilityMatrix, classify, defaultCollectionNames, type CollectionMatrix, type MatrixRow, type Operation } from "./matrix";
import { CALLERS, type Caller } from "./worlds";
import { condWords } from "./words";

const n = defaultCollectionNames();
const specs = platformCollections(n);
const matrix = capabilityMatrix(n);

function spec(key: string): CollectionSpec {
  const found = specs.find((s) => s.key === key);
  if (!found) throw new Error(`no collection ${key}`);
  return found;
}

function rowOf(key: string, operation: Operation): MatrixRow {
  const found = matrix.find((m) => m.key === key)?.rows.find((r) => r.operation === operation);
  if (!found) throw new Error(`no row ${key}.${operation}`);
  return found;
}

/** The cells of a row, by caller, as the document shows them. */
function texts(row: MatrixRow): Record<Caller, string> {
  return Object.fromEntries(row.cells.map((c) => [c.caller, cellText(c)])) as Record<Caller, string>;
}

/** The callers a row shows an unconditional ✓ for, SuperUser aside. */
function allowed(row: MatrixRow): Caller[] {
  return row.cells.filter((c) => c.caller !== "superuser" && cellText(c) === "✓").map((c) => c.caller);
}

const rawRule = (m: CollectionMatrix, op: Operation): Rule => (op === "manage" ? (spec(m.key).auth?.manageRule ?? CLOSED) : spec(m.key).rules[op]);

/** Every non-empty subset of the roles, in ROLES order. */
const roleSets: Role[][] = Array.from({ length: 2 ** ROLES.length - 1 }, (_, i) => ROLES.filter((_, bit) => ((i + 1) >> bit) & 1));

describe(`${MATRIX_DOC}`, () => {
  it(`carries the current matrix (regenerate with ${MATRIX_COMMAND})`, () => {
    const doc = readFileSync(new URL(`../../../${MATRIX_DOC}`, import.meta.url), "utf8");
    expect(doc).toBe(capabilityDocument(n));
  });

  it("has a table per platform collection, with a row per operation and a column per caller", () => {
    expect(matrix.map((m) => m.key)).toEqual(specs.map((s) => s.key));
    for (const m of matrix) {
      expect(m.rows.map((r) => r.operation), m.key).toEqual(
        spec(m.key).auth ? ["list", "view", "create", "update", "delete", "manage"] : ["list", "view", "create", "update", "delete"],
      );
      for (const row of m.rows) expect(row.cells.map((c) => c.caller)).toEqual(CALLERS);
    }
  });
});

describe("the matrix against the raw rules", () => {
  it("shows a null rule as SuperUser only and an empty rule as everyone", () => {
    let closed = 0;
    for (const m of matrix) {
      for (const row of m.rows) {
        const rule = rawRule(m, row.operation);
        expect(row.rule, `${m.key}.${row.operation}`).toBe(rule);
        const cells = texts(row);
        expect(cells.superuser).toBe("✓");
        if (rule === CLOSED) {
          closed += 1;
          for (const caller of CALLERS.filter((c) => c !== "superuser")) expect(cells[caller], `${m.key}.${row.operation} ${caller}`).toBe("—");
        }
        if (rule === "") expect(allowed(row), `${m.key}.${row.operation}`).toEqual(CALLERS.filter((c) => c !== "superuser"));
      }
    }
    expect(closed).toBeGreaterThan(10);
    expect(texts(rowOf("bus_system_operator", "delete")).owner).toBe("—");
    expect(texts(rowOf("activity", "create")).operator).toBe("—");
  });

  it("shows exactly the roles of a membership allowlist, whichever builder wrote it", () => {
    let matched = 0;
    for (const m of matrix) {
      for (const row of m.rows) {
        const rule = rawRule(m, row.operation);
        const roles = roleSets.find((set) =>
          [
            memberOf("organization", set),
            memberListing("organization", set),
            anyOf(memberOf("organization", set)),
            anyOf(memberListing("organization", set)),
            all(memberOf("organization", set), unchanged("organization")),
          ].includes(rule ?? ""),
        );
        if (!roles) continue;
        matched += 1;
        expect(allowed(row), `${m.key}.${row.operation}`).toEqual(roles);
        const refused = CALLERS.filter((c) => c !== "superuser" && !(roles as string[]).includes(c));
        for (const caller of refused) expect(texts(row)[caller], `${m.key}.${row.operation} ${caller}`).toBe("—");
        if (rule?.includes("@request.body.organization")) expect(condWords(row.common ?? { op: "leaf", key: "", words: "" })).toBe("`organization` unchanged");
      }
    }
    // The inventory, bus and overlay collections are all written this way.
    expect(matched).toBeGreaterThan(40);
  });

  it("reads each role's ✓ back from the rule's own role terms where every branch is a membership", () => {
    for (const m of matrix) {
      for (const row of m.rows) {
        const rule = rawRule(m, row.operation);
        if (!rule || !rule.includes("@request.auth.current_role")) continue;
        // A role the rule never names is never allowed through a membership branch: its cell is the one
        // of a user without a role in the organization.
        for (const role of ROLES.filter((r) => !rule.includes(`@request.auth.current_role = "${r}"`))) {
          expect(texts(row)[role], `${m.key}.${row.operation} ${role}`).not.toBe("✓");
        }
      }
    }
  });

  it("gives the Platform Operator exactly the rules with an operator branch", () => {
    for (const m of matrix) {
      for (const row of m.rows) {
        const rule = rawRule(m, row.operation);
        const operatorCell = texts(row).operator;
        if (rule?.includes(isOperator)) expect(operatorCell, `${m.key}.${row.operation}`).toBe("✓");
        // Without an operator branch, only a rule on the caller's own records lets an operator through.
        else if (rule !== "" && !rule?.includes("= @request.auth.id")) expect(operatorCell, `${m.key}.${row.operation}`).toBe("—");
      }
    }
    expect(allowed(rowOf("audit_logs", "list"))).toEqual(["operator"]);
    expect(allowed(rowOf("invites", "create"))).toEqual(["owner", "admin", "operator"]);
    expect(condWords(rowOf("invites", "create").common ?? { op: "leaf", key: "", words: "" })).toBe("`role` is not `owner`");
  });

  it("shows the conditions that a rule puts on the record or the body", () => {
    expect(texts(rowOf("things", "view")).thing).toBe("if the record is the caller itself");
    expect(texts(rowOf("things", "update")).member).toContain("`password` and `email` not sent");
    expect(texts(rowOf("bus_users", "view")).viewer).toBe("if the caller's membership's `bus_user` is the record");
    expect(texts(rowOf("memberships", "delete")).viewer).toBe("if `user` is the caller");
    expect(allowed(rowOf("memberships", "delete"))).toEqual(["owner", "admin"]);
    expect(allowed(rowOf("users", "create"))).toEqual(["anonymous", "operator"]);
    expect(texts(rowOf("users", "list")).other).toContain("without an active organization: if the account is the caller's own");
  });
});

describe("classify", () => {
  const things = spec("things");
  const cells = (rule: Rule) => Object.fromEntries(CALLERS.map((c) => [c, cellText(classify(rule, things, c, n))]));

  it("decides each caller of a synthetic rule", () => {
    expect(cells(memberOf("organization", ["viewer"]))).toMatchObject({ viewer: "✓", owner: "—", other: "—", operator: "—", thing: "—" });
    expect(cells(`@request.auth.id != ""`)).toMatchObject({ anonymous: "—", thing: "✓", dashboard: "✓", other: "✓", superuser: "✓" });
    expect(cells(anyOf(isOperator, memberOf("organization", ALL_ROLES)))).toMatchObject({ anonymous: "—", viewer: "✓", operator: "✓", other: "—" });
  });

  it("refuses to guess a caller term no world decides", () => {
    expect(() => classify(`@request.auth.verified = true`, things, "owner", n)).toThrow(/cannot decide/);
    expect(() => classify(`@request.auth.name:lower = "x"`, things, "owner", n)).toThrow(/not classified/);
  });
});
