// A neutral description of the platform's collections, applied to PocketBase by schema/apply.ts.
import type { CollectionKey } from "./names";

export type FieldSpec =
  | { type: "text"; name: string; required?: boolean; hidden?: boolean; pattern?: string; max?: number }
  | { type: "email"; name: string; required?: boolean }
  | { type: "bool"; name: string; hidden?: boolean }
  | { type: "number"; name: string; onlyInt?: boolean }
  | { type: "json"; name: string; hidden?: boolean }
  | { type: "date"; name: string }
  | { type: "select"; name: string; values: readonly string[]; required?: boolean }
  | {
      type: "relation";
      name: string;
      target: CollectionKey;
      required?: boolean;
      cascadeDelete?: boolean;
    }
  | { type: "file"; name: string; mimeTypes?: string[] }
  | { type: "autodate"; name: string; onUpdate: boolean };

/** A rule expression; null closes the operation to every API caller (SuperUsers bypass rules). */
export type Rule = string | null;

export interface RuleSet {
  list: Rule;
  view: Rule;
  create: Rule;
  update: Rule;
  delete: Rule;
}

export interface CollectionSpec {
  key: CollectionKey;
  type: "base" | "auth";
  /**
   * A stock collection (users) that the platform extends with fields and rules rather than creates:
   * what the pinned PocketBase creates it with, put back when the platform's schema is removed.
   */
  extendsStock?: StockSettings;
  fields: FieldSpec[];
  /** `CREATE INDEX` statements; `{table}` stands for the configured collection name. */
  indexes: string[];
  rules: RuleSet;
  /** passwordCost: bcrypt cost of the password field; PocketBase's default (10) when absent. */
  auth?: { authRule: Rule; manageRule: Rule; tokenSeconds: number; passwordCost?: number };
}

/** A stock collection's own rules and token lifetime, as a fresh database of the pinned binary has them. */
export interface StockSettings {
  rules: RuleSet;
  authRule: Rule;
  manageRule: Rule;
  tokenSeconds: number;
}

/** Created/updated timestamps: PocketBase adds them only through its dashboard, so specs list them. */
export const TIMESTAMPS: FieldSpec[] = [
  { type: "autodate", name: "created", onUpdate: false },
  { type: "autodate", name: "updated", onUpdate: true },
];

/** Upper bound for text fields holding signed tokens, certificates, credential files and configs. */
export const LARGE_TEXT = 100_000;
