// The sidecar's word to PocketBase that it can be reached: under `serve` the sidecar starts during
// bootstrap, before PocketBase listens, and serve does not wait for it. Work that needs both (the bus
// reconcile of serve's start) waits for this call instead of holding up the listener (docs/sidecar.md).
import { STARTED_PATH } from "../common/sidecar/routes";
import type { Post } from "./prober";

/** While PocketBase does not listen yet, the call is repeated this often. */
export const STARTED_RETRY_MS = 25;

/**
 * POSTs STARTED_PATH until PocketBase answers, whatever the status (its start work reports its own
 * failures), and resolves once it has; `stopped` ends the retries when the sidecar is on its way out.
 */
export async function announceStarted(post: Post, stopped: () => boolean = () => false): Promise<void> {
  while (!stopped()) {
    const answered = await post(STARTED_PATH, {}).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, STARTED_RETRY_MS));
  }
}
