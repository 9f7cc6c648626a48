/// <reference path="../../build/types/types.d.ts" />
// $app.store(): the one map every hook VM of the process shares. Each call from goja into Go costs about
// as much as a read of the map, so a VM fetches it once (the module is instantiated once per VM).

let kept: store.Store<string, unknown> | undefined;

/** The process's shared store; values of any type, each key holding one kind. */
export function sharedStore(): store.Store<string, unknown> {
  kept ??= $app.store() as store.Store<string, unknown>;
  return kept;
}
