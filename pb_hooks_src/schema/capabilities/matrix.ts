// The capability matrix: per collection and API operation, which caller may act, derived from the very
// rule sets the migrations apply (platformCollections, built by schema/rules.ts and schema/common.ts). A
// null rule (CLOSED) leaves the operation to SuperUsers, "" opens it to everyone, any other rule is
// evaluated in each world of each caller. Documentation only: the hooks never import this folder.
import { loadConfig } from "../../config/load";
import { platformCollections } from "../collections";
import { collectionNames, type CollectionNames } from "../names";
import { CLOSED } from "../rules";
import type { CollectionSpec, Rule, RuleSet } from "../spec";
import { NO, YES, evaluate, type Result } from "./evaluate";
import { parseRule } from "./parse";
import { CALLERS, worldsOf, type Caller } from "./worlds";
import { condKey, condWords, type Cond } from "./words";

/** The five API rules of every collection, and the manageRule of an auth collection. */
export type Operation = keyof RuleSet | "manage";
const OPERATIONS: readonly (keyof RuleSet)[] = ["list", "view", "create", "update", "delete"];

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
