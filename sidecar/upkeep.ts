// The credential upkeep's schedule (issue 36): goja has no timer, so the sidecar asks PocketBase to renew
// credentials and prune revocation entries (pb_hooks_src/bus/upkeep.ts) every upkeepIntervalMs, a tenth of
// a credential's lifetime at most a minute apart.
import { UPKEEP_PATH } from "../common/sidecar/routes";
import type { Post } from "./prober";
import { repeatEvery, type Repeating } from "./repeat";

export function startUpkeep(intervalMs: number, post: Post, warn: (message: string) => void): Repeating {
  return repeatEvery(
    intervalMs,
    async () => {
      const answer = await post(UPKEEP_PATH, {});
      if (answer.status !== 200) warn(`credential upkeep: PocketBase answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    },
    warn,
    "credential upkeep",
  );
}
