// A parsed rule evaluated in one world, in three-valued logic: a term on the caller is decided by the
// world, a term on the record or the request body stays a condition, shown in words. A term on the caller
// that no world decides makes the generator throw rather than guess.
import type { CollectionSpec } from "../spec";
import { parseAtom, type Atom, type Expr, type Operand, type Value } from "./parse";
import { RECORD_ORG, authValue, membershipsOf, type Scope } from "./worlds";
import { comparisonWords, condKey, list, membershipWords, type Cond } from "./words";

export type Result = { is: "yes" } | { is: "no" } | { is: "unknown"; term: string } | { is: "if"; cond: Cond };

export const YES: Result = { is: "yes" };
export const NO: Result = { is: "no" };

function combine(op: "and" | "or", results: Result[], spec: CollectionSpec): Result {
  const absorbing = op === "and" ? "no" : "yes";
  if (results.some((r) => r.is === absorbing)) return op === "and" ? NO : YES;
  const unknown = results.find((r) => r.is === "unknown");
  if (unknown) return unknown;
  const seen = new Set<string>();
  const items: Cond[] = [];
  for (const r of results) {
    if (r.is !== "if") continue;
    for (const c of r.cond.op === op ? r.cond.items : [r.cond]) {
      if (seen.has(condKey(c))) continue;
      seen.add(condKey(c));
      items.push(c);
    }
  }
  if (items.length === 0) return op === "and" ? YES : NO;
  if (op === "or" && coversSelect(items, spec)) return YES;
  const kept = op === "or" ? absorbed(items) : items;
  return { is: "if", cond: kept.length === 1 ? kept[0] : { op, items: kept } };
}

/** `a || (a && b)` is `a`: drops each branch that asks all another branch asks and more. */
function absorbed(branches: Cond[]): Cond[] {
  const keys = branches.map((b) => new Set((b.op === "and" ? b.items : [b]).map(condKey)));
  return branches.filter((_, i) => !keys.some((other, j) => j !== i && other.size < keys[i].size && [...other].every((k) => keys[i].has(k))));
}

/** `(role = "a" || role = "b" ...)` naming every value of a required select field holds for every record. */
function coversSelect(items: Cond[], spec: CollectionSpec): boolean {
  const values = new Set<string>();
  let name: string | undefined;
  for (const item of items) {
    const atom = item.op === "leaf" ? item.atom : undefined;
    if (!atom || atom.op !== "=" || atom.left.kind !== "field" || atom.right.kind !== "literal") return false;
    if (name !== undefined && name !== atom.left.name) return false;
    name = atom.left.name;
    values.add(String(atom.right.value));
  }
  const field = spec.fields.find((f) => f.name === name);
  return field?.type === "select" && field.required === true && field.values.every((v) => values.has(v));
}

export function evaluate(expr: Expr, scope: Scope): Result {
  if (expr.op === "atom") {
    const atom = parseAtom(expr.text);
    if (joinOf(atom)) return evaluateJoin([expr], scope);
    return compare(atom, scope);
  }
  if (expr.op === "or") return combine("or", expr.items.map((e) => evaluate(e, scope)), scope.spec);
  // Terms on one `@collection.<name>:<alias>` speak of the same joined row: evaluated together.
  const groups = new Map<string, Expr[]>();
  const rest: Expr[] = [];
  for (const item of expr.items) {
    const alias = aliasOf(item);
    if (alias === undefined) rest.push(item);
    else groups.set(alias, [...(groups.get(alias) ?? []), item]);
  }
  const results = [...rest.map((e) => evaluate(e, scope)), ...[...groups.values()].map((g) => evaluateJoin(g, scope))];
  return combine("and", results, scope.spec);
}

function joinOf(atom: Atom): { collection: string; alias: string } | undefined {
  if (atom.left.kind === "join") return atom.left;
  if (atom.right.kind === "join") return atom.right;
  return undefined;
}

/** The join alias every atom of `expr` names, if they all name one. */
function aliasOf(expr: Expr): string | undefined {
  const atoms = flatten(expr);
  const aliases = new Set(atoms.map((text) => {
    const join = joinOf(parseAtom(text));
    return join ? `${join.collection}:${join.alias}` : undefined;
  }));
  if (aliases.size !== 1) return undefined;
  return [...aliases][0];
}

function flatten(expr: Expr): string[] {
  return expr.op === "atom" ? [expr.text] : expr.items.flatMap(flatten);
}

/**
 * Terms on one joined row. Anchored on the caller (`<alias>.user ?= @request.auth.id` on memberships),
 * the row is one of the caller's memberships, which the world knows; otherwise the whole group is a
 * condition on other records.
 */
function evaluateJoin(group: Expr[], scope: Scope): Result {
  const atoms = group.flatMap(flatten).map(parseAtom);
  const join = joinOf(atoms[0]);
  if (!join) throw new Error("a join group without a join");
  const anchored =
    join.collection === scope.n.memberships &&
    atoms.some((a) => a.left.kind === "join" && a.left.field === "user" && a.right.kind === "auth" && a.right.field === "id");
  if (!anchored) {
    const conditions = atoms.map((a) => comparisonWords(a, scope, (field) => `whose \`${field}\``));
    const text = membershipWords(atoms, scope) ?? `some \`${join.collection}\` record ${list(conditions)}`;
    return { is: "if", cond: { op: "leaf", key: group.map((e) => flatten(e).join(" ")).join(" && "), words: text } };
  }
  const userId = authValue(scope.world, "id", scope.n);
  const rows = membershipsOf(scope.world).map((row) => {
    const rowScope: Scope & { row: Record<string, Value> } = {
      ...scope,
      row: { user: userId ?? "", organization: row.organization, role: row.role },
    };
    return combine("and", group.map((e) => evaluateInRow(e, rowScope)), scope.spec);
  });
  return combine("or", rows, scope.spec);
}

function evaluateInRow(expr: Expr, scope: Scope & { row: Record<string, Value> }): Result {
  if (expr.op === "atom") return compare(parseAtom(expr.text), scope, scope.row);
  return combine(expr.op, expr.items.map((e) => evaluateInRow(e, scope)), scope.spec);
}

type Resolved = { kind: "value"; value: Value } | { kind: "open" } | { kind: "undecided" };

function resolve(o: Operand, scope: Scope, row?: Record<string, Value>): Resolved {
  switch (o.kind) {
    case "literal":
      return { kind: "value", value: o.value };
    case "auth": {
      const value = authValue(scope.world, o.field, scope.n);
      return value === undefined ? { kind: "undecided" } : { kind: "value", value };
    }
    case "body":
      return { kind: "open" };
    case "join": {
      const value = row?.[o.field];
      return value === undefined ? { kind: "open" } : { kind: "value", value };
    }
    case "field":
      // The record's organization is the one the world relates the caller to; an organization record
      // is its own organization.
      if (o.name === "organization" && scope.spec.fields.some((f) => f.name === "organization")) return { kind: "value", value: RECORD_ORG };
      if (o.name === "id" && scope.spec.key === "organizations") return { kind: "value", value: RECORD_ORG };
      return { kind: "open" };
  }
}

function compare(atom: Atom, scope: Scope, row?: Record<string, Value>): Result {
  const left = resolve(atom.left, scope, row);
  const right = resolve(atom.right, scope, row);
  if (left.kind === "undecided" || right.kind === "undecided") return { is: "unknown", term: atom.text };
  if (left.kind === "value" && right.kind === "value") return holds(left.value, atom.op, right.value, atom.text) ? YES : NO;
  // A record id is never blank: `id = @request.auth.id` fails for an anonymous caller.
  const blankId = (o: Operand, r: Resolved) => o.kind === "field" && o.name === "id" && r.kind === "open";
  if ((blankId(atom.left, left) && right.kind === "value" && right.value === "") || (blankId(atom.right, right) && left.kind === "value" && left.value === "")) {
    if (atom.op === "=" || atom.op === "?=") return NO;
    if (atom.op === "!=" || atom.op === "?!=") return YES;
  }
  return { is: "if", cond: { op: "leaf", key: atom.text, words: comparisonWords(atom, scope), atom } };
}

function holds(a: Value, op: string, b: Value, text: string): boolean {
  const x = typeof a === "number" && typeof b === "number" ? a : String(a);
  const y = typeof a === "number" && typeof b === "number" ? b : String(b);
  switch (op.replace(/^\?/, "")) {
    case "=":
      return x === y;
    case "!=":
      return x !== y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
    case "<":
      return x < y;
    case "<=":
      return x <= y;
    default:
      throw new Error(`operator not classified: ${text}`);
  }
}
