// Globals of PocketBase's goja runtime that the generated build/types/types.d.ts does not declare.
declare function require(path: string): unknown;
declare const console: {
  log(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
};
