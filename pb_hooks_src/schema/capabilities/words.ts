// Conditions: the terms of a rule that a world leaves open (on the record or the request body), each kept
// with its words for docs/capabilities.md. Apart from evaluate.ts so that the evaluation and the matrix
// both use them without an import cycle.
import { CURRENT_SCOPE } from "../rules";
import type { Atom, Operand } from "./parse";
import type { Scope } from "./worlds";

export type Cond = { op: "and" | "or"; items: Cond[] } | { op: "leaf"; key: string; words: string; atom?: Atom };

export function condKey(c: Cond): string {
  return c.op === "leaf" ? c.key : `(${c.items.map(condKey).join(c.op === "and" ? " && " : " || ")})`;
}

/** `m.user ?= a && m.organization ?= b` on memberships: "a holds a membership in b". */
export function membershipWords(atoms: Atom[], scope: Scope): string | undefined {
  if (atoms.length !== 2 || atoms.some((a) => a.left.kind !== "join" || a.left.collection !== scope.n.memberships || a.op !== "?=")) return undefined;
  const side = (field: string) => atoms.find((a) => a.left.kind === "join" && a.left.field === field);
  const user = side("user");
  const organization = side("organization");
  if (!user || !organization) return undefined;
  const none = () => "";
  return `${operandWords(user.right, scope, none)} holds a membership in ${operandWords(organization.right, scope, none)}`;
}

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

export function comparisonWords(atom: Atom, scope: Scope, joinField: (field: string) => string = (f) => `the caller's membership's \`${f}\``): string {
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

export function list(parts: string[]): string {
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
