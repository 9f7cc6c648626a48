/// <reference path="../build/types/types.d.ts" />
// The single hooks entry file: registrations only. PocketBase serializes every handler and runs it in a
// pooled VM where no top-level name of this file exists, so each handler requires the library itself.
export {};
