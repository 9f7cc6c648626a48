// The subject rules an account claim's exports and imports must follow (pure), as nats-io/jwt v2
// validates them when nats-server receives the claim. A claim that breaks one is refused by the server as
// a whole, so one careless export (a subject exported twice, a space) froze the tenant's account at its
// last accepted claim: a suspension or a revocation recorded after it never reached the bus. Rows that
// say the same thing (a double-click) are signed once (distinctExchanges), so they are no conflict.

export interface ExchangeRow {
  subject: string;
  kind: string;
  /** Imports only: the exporting account's public key. */
  account?: string;
  /** Imports only: the subject the import is remapped to, with $1… for the subject's `*` wildcards. */
  localSubject?: string;
}

/** The rows with the same kind, subject, account and local subject kept once, first one first. */
export function distinctExchanges<T extends ExchangeRow>(rows: readonly T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = JSON.stringify([row.kind, row.subject, row.account ?? "", row.localSubject ?? ""]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Why `subject` is not a claim subject, or undefined. */
export function subjectProblem(subject: string): string | undefined {
  if (subject === "") return "cannot be empty";
  if (/\s/.test(subject)) return `"${subject}" cannot contain whitespace`;
  if (subject.startsWith(".") || subject.endsWith(".") || subject.includes("..")) return `"${subject}" cannot have an empty token (a leading, trailing or doubled ".")`;
  return undefined;
}

/** nats-io/jwt's Subject.IsContainedIn: every subject `subject` matches is matched by `other`. */
export function isContainedIn(subject: string, other: string): boolean {
  const mine = subject.split(".");
  const theirs = other.split(".");
  if (mine.length > theirs.length && theirs[theirs.length - 1] !== ">") return false;
  if (mine.length < theirs.length) return false;
  for (let i = 0; i < theirs.length; i++) {
    if (i === theirs.length - 1 && theirs[i] === ">") return true;
    if (theirs[i] !== mine[i] && theirs[i] !== "*") return false;
  }
  return true;
}

/** Why `local` cannot remap `subject`, or undefined (nats-io/jwt's RenamingSubject rules). */
export function renamingProblem(local: string, subject: string): string | undefined {
  const problem = subjectProblem(local);
  if (problem) return problem;
  const endsInRest = (s: string) => s === ">" || s.endsWith(".>");
  if (endsInRest(local) !== endsInRest(subject)) return `"${local}" and "${subject}" must both end in ">" or neither`;
  const wildcards = subject.split(".").filter((token) => token === "*").length;
  let references = 0;
  for (const token of local.split(".")) {
    if (token === "*") references++;
    const reference = /^\$(\d+)$/.exec(token);
    if (!reference) continue;
    if (Number(reference[1]) > wildcards) return `"${local}" refers to ${token}, but "${subject}" has ${wildcards} "*" wildcards`;
    references++;
  }
  return references === wildcards ? undefined : `"${local}" must use each of the ${wildcards} "*" wildcards of "${subject}" (as * or $1…)`;
}

/**
 * Why this set of exports cannot be signed, or undefined: each subject must be valid, and within one kind
 * no subject may be covered by another.
 */
export function exportsProblem(rows: readonly ExchangeRow[]): string | undefined {
  const exports = distinctExchanges(rows);
  for (const row of exports) {
    const problem = subjectProblem(row.subject);
    if (problem) return `subject ${problem}`;
  }
  for (let i = 0; i < exports.length; i++) {
    for (let j = 0; j < exports.length; j++) {
      const [a, b] = [exports[i], exports[j]];
      if (i !== j && a.kind === b.kind && isContainedIn(a.subject, b.subject)) {
        return `the ${a.kind} export "${b.subject}" already covers "${a.subject}"`;
      }
    }
  }
  return undefined;
}

/**
 * Why this set of imports cannot be signed, or undefined: each subject and local subject must be valid,
 * and a service's subjects (as remapped) must not overlap another service import from the same account.
 */
export function importsProblem(rows: readonly ExchangeRow[]): string | undefined {
  const imports = distinctExchanges(rows);
  for (const row of imports) {
    const problem = subjectProblem(row.subject);
    if (problem) return `subject ${problem}`;
    const renaming = row.localSubject ? renamingProblem(row.localSubject, row.subject) : undefined;
    if (renaming) return `local_subject ${renaming}`;
  }
  const services = imports.filter((row) => row.kind === "service");
  const served = (row: ExchangeRow) => (row.localSubject ? row.localSubject.replace(/(^|\.)\$\d+(?=\.|$)/g, "$1*") : row.subject);
  for (let i = 0; i < services.length; i++) {
    for (let j = i + 1; j < services.length; j++) {
      const [a, b] = [services[i], services[j]];
      if (a.account !== b.account) continue;
      if (isContainedIn(served(a), served(b)) || isContainedIn(served(b), served(a))) {
        return `the service imports "${served(a)}" and "${served(b)}" from the same account overlap`;
      }
    }
  }
  return undefined;
}
