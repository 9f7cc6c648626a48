// Which applied migrations this build does not know (check `schema_version`). Pure.
// Both lists are fixed at build time (scripts/build-hooks.mjs): the platform's own JS migrations and the
// pinned PocketBase's own, read from a fresh database of that binary by scripts/gen-types.sh.
declare const __PLATFORM_MIGRATIONS__: readonly string[] | undefined;
declare const __POCKETBASE_MIGRATIONS__: readonly string[] | undefined;

export function knownMigrations(): readonly string[] {
  return [
    ...(typeof __POCKETBASE_MIGRATIONS__ === "undefined" ? [] : __POCKETBASE_MIGRATIONS__),
    ...(typeof __PLATFORM_MIGRATIONS__ === "undefined" ? [] : __PLATFORM_MIGRATIONS__),
  ];
}

/** Applied migrations missing from `known`, in applied order. */
export function unknownMigrations(applied: readonly string[], known: readonly string[]): string[] {
  const knownSet = new Set(known);
  return applied.filter((file) => !knownSet.has(file));
}
