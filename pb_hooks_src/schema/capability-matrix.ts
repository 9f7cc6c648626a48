// The capability matrix of docs/capabilities.md: per collection and API operation, which caller may act,
// derived from the very rule sets the migrations apply (platformCollections, built by schema/rules.ts and
// schema/common.ts). scripts/capability-table.mjs writes the document; a unit test fails when it is out of
// date. Documentation only: the hooks never import it.
//
// A rule is a PocketBase filter expression. null (CLOSED) leaves the operation to SuperUsers, "" opens it
// to everyone. Any other rule is parsed and evaluated once per caller (a "world": who is signed in, with
// which role in the record's organization, whether a Platform Operator), in three-valued logic: a term on
// the caller is decided by the world, a term on the record or the request body stays a condition, shown
// in words. A term on the caller that no world decides makes the generator throw rather than guess.
import { loadConfig } from "../config/load";
import { ROLES, type Role } from "../lib/roles";
import { platformCollections } from "./collections";
import { collectionNames, type CollectionNames } from "./names";
import { CLOSED, CURRENT_ROLE, CURRENT_SCOPE } from "./rules";
import type { CollectionSpec, Rule, RuleSet } from "./spec";

/** The rule file named in the document's header. */
export const MATRIX_SOURCE = "pb_hooks_src/schema/collections.ts";
export const MATRIX_DOC = "docs/capabilities.md";
export const MATRIX_COMMAND = "node scripts/capability-table.mjs";

/** The five API rules of every collection, and the manageRule of an auth collection. */
export type Operation = keyof RuleSet | "manage";
const OPERATIONS: readonly (keyof RuleSet)[] = ["list", "view", "create", "update", "delete"];

export type Caller = "anonymous" | "thing" | Role | "other" | "operator" | "superuser";
export const CALLERS: readonly Caller[] = ["anonymous", "thing", ...ROLES, "other", "operator", "superuser"];

const CALLER_LABELS: Record<Caller, string> = {
  anonymous: "Anonymous",
  thing: "Thing",
  owner: "owner",
  admin: "admin",
  member: "member",
  viewer: "viewer",
  dashboard: "dashboard",
  other: "Other user",
  operator: "Platform Operator",
  superuser: "SuperUser",
};

// ---------------------------------------------------------------------------------------------------
// Parsing: `a && (b || c)` into a tree whose leaves are comparisons.

type Expr = { op: "and" | "or"; items: Expr[] } | { op: "atom"; text: string };
type Token = { kind: "(" | ")" | "and" | "or" } | { kind: "atom"; text: string };

function tokenize(rule: string): Token[] {
  const tokens: Token[] = [];
  let atom = "";
  const flush = () => {
    const text = atom.trim();
    if (text !== "") tokens.push({ kind: "atom", text });
    atom = "";
  };
  let i = 0;
  while (i < rule.length) {
    const c = rule.charAt(i);
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < rule.length && rule.charAt(j) !== c) j += rule.charAt(j) === "\\" ? 2 : 1;
      if (j >= rule.length) throw new Error(`unterminated string in rule: ${rule}`);
      atom += rule.slice(i, j + 1);
      i = j + 1;
    } else if (c === "(" || c === ")") {
      if (c === "(" && atom.trim() !== "") throw new Error(`function calls are not classified: ${rule}`);
      flush();
      tokens.push({ kind: c });
      i += 1;
    } else if (rule.startsWith("&&", i) || rule.startsWith("||", i)) {
      flush();
      tokens.push({ kind: rule.startsWith("&&", i) ? "and" : "or" });
      i += 2;
    } else {
      atom += c;
      i += 1;
    }
  }
  flush();
  return tokens;
}

export function parseRule(rule: string): Expr {
  const tokens = tokenize(rule);
  let pos = 0;
  const fail = (): never => {
    throw new Error(`cannot parse rule at token ${pos}: ${rule}`);
  };
  const joined = (op: "and" | "or", items: Expr[]): Expr =>
    items.length === 1 ? items[0] : { op, items: items.flatMap((e) => (e.op === op ? e.items : [e])) };
  const primary = (): Expr => {
    const token = tokens[pos++] ?? fail();
    if (token.kind === "atom") return { op: "atom", text: token.text };
    if (token.kind !== "(") return fail();
    const inner = disjunction();
    if (tokens[pos++]?.kind !== ")") fail();
    return inner;
  };
  const conjunction = (): Expr => {
    const items = [primary()];
    while (tokens[pos]?.kind === "and") {
      pos += 1;
      items.push(primary());
    }
    return joined("and", items);
  };
  const disjunction = (): Expr => {
    const items = [conjunction()];
    while (tokens[pos]?.kind === "or") {
      pos += 1;
      items.push(conjunction());
    }
    return joined("or", items);
  };
  const tree = disjunction();
  if (pos !== tokens.length) fail();
  return tree;
}

type Value = string | number | boolean;
type Operand =
  | { kind: "literal"; value: Value }
  | { kind: "auth"; field: string }
  | { kind: "body"; field: string; isset: boolean }
  | { kind: "join"; collection: string; alias: string; field: string }
  | { kind: "field"; name: string };

export interface Atom {
  text: string;
  left: Operand;
  op: string;
  right: Operand;
}

const COMPARISON = /^(\S+?)\s*(\?!=|\?>=|\?<=|\?!~|\?=|\?~|\?>|\?<|!=|!~|>=|<=|=|~|>|<)\s*(\S.*)$/;

function parseAtom(text: string): Atom {
  const m = COMPARISON.exec(text);
  if (!m) throw new Error(`not a comparison: ${text}`);
  return { text, left: parseOperand(m[1]), op: m[2], right: parseOperand(m[3].trim()) };
}

function parseOperand(text: string): Operand {
  if (/^"(?:[^"\\]|\\.)*"$/.test(text) || /^'(?:[^'\\]|\\.)*'$/.test(text)) {
    return { kind: "literal", value: text.slice(1, -1).replace(/\\(.)/g, "$1") };
  }
  if (text === "true" || text === "false") return { kind: "literal", value: text === "true" };
  if (text === "null") return { kind: "literal", value: "" };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: "literal", value: Number(text) };
  let m = /^@request\.auth\.(\w+)$/.exec(text);
  if (m) return { kind: "auth", field: m[1] };
  m = /^@request\.body\.(\w+)(:isset)?$/.exec(text);
  if (m) return { kind: "body", field: m[1], isset: m[2] !== undefined };
  m = /^@collection\.(\w+)(?::(\w+))?\.(\w+)$/.exec(text);
  if (m) return { kind: "join", collection: m[1], alias: m[2] ?? m[1], field: m[3] };
  if (/^[A-Za-z_]\w*$/.test(text)) return { kind: "field", name: text };
  throw new Error(`operand not classified: ${text}`);
}

// ---------------------------------------------------------------------------------------------------
// Worlds: one concrete caller each, relative to the record whose access is checked.

interface World {
  /** Who is signed in. */
  auth: "none" | "users" | "things";
  operator: boolean;
  /** The caller's active organization: the record's, another one, or none. */
  active: "record" | "other" | "none";
  /** The caller's role in its active organization ("" without one). */
  role: Role | "";
  /** Shown when the caller's worlds disagree. */
  label: string;
}

// Symbolic values that no literal of a rule can equal.
const RECORD_ORG = "\u0000record-organization";
const OTHER_ORG = "\u0000other-organization";
const CALLER_ID = "\u0000caller";

function worldsOf(caller: Exclude<Caller, "superuser">): World[] {
  if (caller === "anonymous") return [{ auth: "none", operator: false, active: "none", role: "", label: "" }];
  if (caller === "thing") return [{ auth: "things", operator: false, active: "none", role: "", label: "" }];
  if (caller === "other" || caller === "operator") {
    const operator = caller === "operator";
    return [
      { auth: "users", operator, active: "none", role: "", label: "without an active organization" },
      ...ROLES.map((role): World => ({ auth: "users", operator, active: "other", role, label: `as ${role} of another active organization` })),
    ];
  }
  return [{ auth: "users", operator: false, active: "record", role: caller, label: "" }];
}

/** `@request.auth.<field>` in a world; undefined when the world does not decide it. */
function authValue(world: World, field: string, n: CollectionNames): Value | undefined {
  // PocketBase resolves every field of a missing auth record to blank.
  if (world.auth === "none") return "";
  if (field === "id") return CALLER_ID;
  if (field === "collectionName") return n[world.auth];
  if (world.auth === "things") return undefined;
  const organization = world.active === "record" ? RECORD_ORG : world.active === "other" ? OTHER_ORG : "";
  const fields: Record<string, Value> = {
    is_operator: world.operator,
    current_organization: organization,
    [CURRENT_SCOPE]: organization,
    [CURRENT_ROLE]: world.role,
  };
  return Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : undefined;
}

/** The caller's membership rows, as far as a world knows them. */
function membershipsOf(world: World): { organization: string; role: Role }[] {
  if (world.auth !== "users" || world.role === "") return [];
  return [{ organization: world.active === "record" ? RECORD_ORG : OTHER_ORG, role: world.role }];
}

// ---------------------------------------------------------------------------------------------------
// Evaluation in three-valued logic, leaving record and body terms as conditions.

export type Cond = { op: "and" | "or"; items: Cond[] } | { op: "leaf"; key: string; words: string; atom?: Atom };
export type Result = { is: "yes" } | { is: "no" } | { is: "unknown"; term: string } | { is: "if"; cond: Cond };

const YES: Result = { is: "yes" };
const NO: Result = { is: "no" };

function condKey(c: Cond): string {
  return c.op === "leaf" ? c.key : `(${c.items.map(condKey).join(c.op === "and" ? " && " : " || ")})`;
}

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

interface Scope {
  spec: CollectionSpec;
  n: CollectionNames;
  world: World;
}

function evaluate(expr: Expr, scope: Scope): Result {
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

/** `m.user ?= a && m.organization ?= b` on memberships: "a holds a membership in b". */
function membershipWords(atoms: Atom[], scope: Scope): string | undefined {
  if (atoms.length !== 2 || atoms.some((a) => a.left.kind !== "join" || a.left.collection !== scope.n.memberships || a.op !== "?=")) return undefined;
  const side = (field: string) => atoms.find((a) => a.left.kind === "join" && a.left.field === field);
  const user = side("user");
  const organization = side("organization");
  if (!user || !organization) return undefined;
  const none = () => "";
  return `${operandWords(user.right, scope, none)} holds a membership in ${operandWords(organization.right, scope, none)}`;
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

// ---------------------------------------------------------------------------------------------------
// Words.

function operandWords(o: Operand, scope: Scope, joinField: (field: string) => string): string {
  switch (o.kind) {
    case "literal":
      return o.value === "" ? "empty" : `\`${String(o.value)}\``;
    case "auth":
      if (o.field === "id") return "the caller";
      if (o.field === "current_organization" || o.field === CURRENT_SCOPE) return "the caller's active organization";
      return `the caller's \`${o.field}\``;
    case "body":
      return `the sent \`${o.field}\``;
    case "join":
      return joinField(o.field);
    case "field":
      if (o.name === "id") return scope.spec.key === "users" ? "the account" : "the record";
      return `\`${o.name}\``;
  }
}

function comparisonWords(atom: Atom, scope: Scope, joinField: (field: string) => string = (f) => `the caller's membership's \`${f}\``): string {
  const { left, op, right } = atom;
  if (left.kind === "body" && left.isset && right.kind === "literal") return `\`${left.field}\` ${right.value === false ? "not " : ""}sent`;
  if (left.kind === "field" && left.name === "id" && right.kind === "auth" && right.field === "id") {
    return scope.spec.key === "users" ? "the account is the caller's own" : "the record is the caller itself";
  }
  if (left.kind === "body" && right.kind === "field" && right.name === left.field && op === "=") return `\`${left.field}\` sent unchanged`;
  const a = operandWords(left, scope, joinField);
  const b = operandWords(right, scope, joinField);
  const verb: Record<string, string> = { "=": "is", "?=": "is", "!=": "is not", "?!=": "is not", ">": ">", ">=": "≥", "<": "<", "<=": "≤" };
  if (left.kind === "body" && op === "=") return `\`${left.field}\` sent as ${b}`;
  return `${a} ${verb[op] ?? op} ${b}`;
}

function list(parts: string[]): string {
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** `(@request.body.f:isset = false || @request.body.f = f)` (rules.ts unchanged): the field it keeps. */
function keptField(c: Cond): string | undefined {
  if (c.op !== "or" || c.items.length !== 2) return undefined;
  const [unset, same] = c.items.map((i) => (i.op === "leaf" ? i.atom : undefined));
  if (!unset || !same || unset.left.kind !== "body" || !unset.left.isset || unset.right.kind !== "literal" || unset.right.value !== false) return undefined;
  const field = unset.left.field;
  const keeps = same.left.kind === "body" && same.left.field === field && same.op === "=" && same.right.kind === "field" && same.right.name === field;
  return keeps ? field : undefined;
}

/** `@request.body.f:isset = false` (rules.ts untouched): the field it leaves alone. */
function unsentField(c: Cond): string | undefined {
  const atom = c.op === "leaf" ? c.atom : undefined;
  if (!atom || atom.left.kind !== "body" || !atom.left.isset || atom.right.kind !== "literal" || atom.right.value !== false) return undefined;
  return atom.left.field;
}

export function condWords(c: Cond, nested = false): string {
  if (c.op === "leaf") return c.words;
  const kept = keptField(c);
  if (kept !== undefined) return `\`${kept}\` unchanged`;
  if (c.op === "or") {
    // Adjacent branches on one body field share its name: "`f` not sent, sent as empty or sent unchanged".
    const parts: { field?: string; words: string[] }[] = [];
    for (const item of c.items) {
      const atom = item.op === "leaf" ? item.atom : undefined;
      const field = atom?.left.kind === "body" ? atom.left.field : undefined;
      const words = condWords(item, true);
      const last = parts[parts.length - 1];
      const prefix = `\`${field}\` `;
      if (field !== undefined && last?.field === field && words.startsWith(prefix)) last.words.push(words.slice(prefix.length));
      else parts.push({ field, words: [words] });
    }
    const text = parts.map((p) => (p.words.length === 1 ? p.words[0] : `${p.words.slice(0, -1).join(", ")} or ${p.words[p.words.length - 1]}`)).join(" or ");
    return nested ? `(${text})` : text;
  }
  const keptFields: string[] = [];
  const unsent: string[] = [];
  const rest: string[] = [];
  for (const item of c.items) {
    const k = keptField(item);
    const u = unsentField(item);
    if (k !== undefined) keptFields.push(`\`${k}\``);
    else if (u !== undefined) unsent.push(`\`${u}\``);
    else rest.push(condWords(item, true));
  }
  if (keptFields.length > 0) rest.push(`${list(keptFields)} unchanged`);
  if (unsent.length > 0) rest.push(`${list(unsent)} not sent`);
  const text = list(rest);
  return nested && rest.length > 1 ? `(${text})` : text;
}

// ---------------------------------------------------------------------------------------------------
// The matrix.

/** One caller's access: one answer, or one per world when its worlds disagree. */
export interface Cell {
  caller: Caller;
  outcomes: { worlds: string[]; result: Result }[];
}

export interface MatrixRow {
  operation: Operation;
  rule: Rule;
  cells: Cell[];
  /** Conditions every caller bound by the rule meets besides (factored out of the cells). */
  common?: Cond;
}

export interface CollectionMatrix {
  key: CollectionSpec["key"];
  name: string;
  type: CollectionSpec["type"];
  /** The authRule of an auth collection: which of its records may sign in. */
  signIn?: string;
  rows: MatrixRow[];
}

export function defaultCollectionNames(): CollectionNames {
  return collectionNames(
    loadConfig({
      env: {},
      args: ["pocketbase"],
      cwd: "/nowhere",
      readFile: () => undefined,
      parseYaml: () => {
        throw new Error("no config file is read");
      },
    }),
  );
}

/** What `caller` may do under `rule` on a record of `spec`. */
export function classify(rule: Rule, spec: CollectionSpec, caller: Caller, n: CollectionNames): Cell {
  if (caller === "superuser" || rule === "") return { caller, outcomes: [{ worlds: [], result: YES }] };
  if (rule === CLOSED) return { caller, outcomes: [{ worlds: [], result: NO }] };
  const tree = parseRule(rule);
  const outcomes: Cell["outcomes"] = [];
  for (const world of worldsOf(caller)) {
    const result = evaluate(tree, { spec, n, world });
    if (result.is === "unknown") throw new Error(`${spec.key}: cannot decide \`${result.term}\` for ${caller} ${world.label}`.trim());
    const same = outcomes.find((o) => resultKey(o.result) === resultKey(result));
    if (same) same.worlds.push(world.label);
    else outcomes.push({ worlds: [world.label], result });
  }
  return { caller, outcomes };
}

function resultKey(r: Result): string {
  return r.is === "if" ? `if ${condKey(r.cond)}` : r.is;
}

export function capabilityMatrix(n: CollectionNames = defaultCollectionNames()): CollectionMatrix[] {
  return platformCollections(n).map((spec) => {
    const rules: [Operation, Rule][] = OPERATIONS.map((op) => [op, spec.rules[op]]);
    if (spec.auth) rules.push(["manage", spec.auth.manageRule]);
    const rows = rules.map(([operation, rule]) => factorRow({ operation, rule, cells: CALLERS.map((c) => classify(rule, spec, c, n)) }));
    const signIn = spec.auth ? signInWords(spec, n) : undefined;
    return { key: spec.key, name: n[spec.key], type: spec.type, signIn, rows };
  });
}

function signInWords(spec: CollectionSpec, n: CollectionNames): string {
  const rule = spec.auth?.authRule ?? CLOSED;
  if (rule === CLOSED) return "no record may sign in (SuperUsers impersonate)";
  if (rule === "") return "every record may sign in";
  const result = evaluate(parseRule(rule), { spec, n, world: worldsOf("anonymous")[0] });
  if (result.is !== "if") throw new Error(`${spec.key}: a sign-in rule not on the record: ${rule}`);
  return `a record may sign in if ${condWords(result.cond)}`;
}

/** Moves conditions that every allowed caller meets into the row's `common`. */
function factorRow(row: MatrixRow): MatrixRow {
  const bound = row.cells.filter((c) => c.caller !== "superuser").flatMap((c) => c.outcomes.map((o) => o.result));
  const allowed = bound.filter((r) => r.is !== "no");
  if (allowed.length === 0 || allowed.some((r) => r.is !== "if")) return row;
  const conjuncts = (r: Result): Cond[] => (r.is !== "if" ? [] : r.cond.op === "and" ? r.cond.items : [r.cond]);
  const [first, ...others] = allowed.map(conjuncts);
  const common = first.filter((c) => others.every((cs) => cs.some((o) => condKey(o) === condKey(c))));
  if (common.length === 0) return row;
  const keys = new Set(common.map(condKey));
  const strip = (r: Result): Result => {
    if (r.is !== "if") return r;
    const left = conjuncts(r).filter((c) => !keys.has(condKey(c)));
    return left.length === 0 ? YES : { is: "if", cond: left.length === 1 ? left[0] : { op: "and", items: left } };
  };
  const cells = row.cells.map((cell) =>
    cell.caller === "superuser" ? cell : { ...cell, outcomes: cell.outcomes.map((o) => ({ ...o, result: strip(o.result) })) },
  );
  return { ...row, cells, common: common.length === 1 ? common[0] : { op: "and", items: common } };
}

// ---------------------------------------------------------------------------------------------------
// Markdown.

function resultText(r: Result): string {
  if (r.is === "yes") return "✓";
  if (r.is === "no") return "—";
  if (r.is === "if") return `if ${condWords(r.cond)}`;
  return "?";
}

export function cellText(cell: Cell): string {
  if (cell.outcomes.length === 1) return resultText(cell.outcomes[0].result);
  return cell.outcomes.map((o) => `${worldsText(o.worlds)}: ${resultText(o.result)}`).join("; ");
}

function worldsText(worlds: string[]): string {
  const prefix = "as ";
  const suffix = " of another active organization";
  const roles = worlds.filter((w) => w.startsWith(prefix) && w.endsWith(suffix)).map((w) => w.slice(prefix.length, -suffix.length));
  const others = worlds.filter((w) => !(w.startsWith(prefix) && w.endsWith(suffix)));
  if (roles.length === ROLES.length) others.push("with another organization active");
  else if (roles.length > 0) others.push(`as ${list(roles)} of another active organization`);
  return list(others);
}

const escape = (text: string) => text.replace(/\|/g, "\\|");

export function collectionTable(m: CollectionMatrix): string {
  const header = `| Operation | ${CALLERS.map((c) => CALLER_LABELS[c]).join(" | ")} | Every caller but a SuperUser also needs |`;
  const rule = `|---|${CALLERS.map(() => ":-:").join("|")}|---|`;
  const rows = m.rows.map((row) => {
    const cells = row.cells.map((c) => escape(cellText(c)));
    return `| ${row.operation} | ${cells.join(" | ")} | ${row.common ? escape(condWords(row.common)) : ""} |`;
  });
  return [header, rule, ...rows].join("\n");
}

export function capabilityTables(n: CollectionNames = defaultCollectionNames()): string {
  return capabilityMatrix(n)
    .map((m) => {
      const title = `### \`${m.name}\`${m.type === "auth" ? " (auth collection)" : ""}`;
      const signIn = m.signIn === undefined ? [] : ["", `Sign-in (authRule): ${m.signIn}.`];
      return [title, "", collectionTable(m), ...signIn].join("\n");
    })
    .join("\n\n");
}

export function capabilityDocument(n: CollectionNames = defaultCollectionNames()): string {
  return `# Capability matrix

Generated by \`${MATRIX_COMMAND}\` from the API rules the migrations apply: the collection specs of
\`${MATRIX_SOURCE}\` (\`platformCollections\`), whose rules the builders of
\`pb_hooks_src/schema/rules.ts\` and \`pb_hooks_src/schema/common.ts\` compose. Do not edit it by hand:
\`pb_hooks_src/schema/capability-matrix.test.ts\` fails until it is regenerated. The derivation
(\`pb_hooks_src/schema/capability-matrix.ts\`): a null rule leaves the operation to SuperUsers, an empty
rule opens it to everyone, and any other rule is evaluated for each caller below; what depends on the
record or the request body rather than on the caller is shown as a condition. Collections appear under
their default names.

Callers (columns):

- **Anonymous**: no session.
- **Thing**: a device signed in as a record of \`${n.things}\`.
- **${ROLES.join("**, **")}**: a user holding that membership role in the record's organization, with
  that organization active (\`current_organization\`). For \`${n.organizations}\` the record is the
  organization; for \`${n.users}\` it is the caller's active organization.
- **Other user**: a user without a role in the record's organization: without an active organization, or
  with another organization active, where it holds any role.
- **Platform Operator**: a user with \`is_operator\`, without a role in the record's organization (active
  organization as for Other user). An operator who also holds a role there has both columns' rights.
- **SuperUser**: bypasses every rule.

Cells: ✓ allowed, — refused, "if …" allowed for the records and request bodies meeting the condition.
Where a caller's cases differ, the cell names each. The last column holds the conditions that every
caller but a SuperUser meets besides. "manage" is an auth collection's manageRule: a caller meeting it
may set a record's e-mail, password and verified state without the record's old password.

The custom routes (\`/api/org/...\`, \`/api/me/...\`, registered in \`pb_hooks_src/main.pb.ts\`) are not
in this matrix: each handler checks its caller in code (\`MANAGERS.includes(...)\`, a collection-name
test, or deeper in the service it calls) instead of declaring its allowed roles in one place.

${capabilityTables(n)}
`;
}
