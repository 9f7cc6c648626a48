// Parsing for the capability matrix: a PocketBase rule, `a && (b || c)`, into a tree whose leaves are
// comparisons, and each comparison into its operands. Only the syntax the platform's rules use is
// classified; anything else throws, so that the matrix never describes a rule it misread.

export type Expr = { op: "and" | "or"; items: Expr[] } | { op: "atom"; text: string };
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

export type Value = string | number | boolean;
export type Operand =
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

export function parseAtom(text: string): Atom {
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
