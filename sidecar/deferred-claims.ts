// Claims signed after their write (pb_hooks_src/bus/deferred-signing.ts): goja has no way to run work
// once a request has answered, so after committing a revocation on a large claim PocketBase hands the
// account's id here and answers its caller; this asks PocketBase back, in a request of its own, to sign and
// push that account's claim as recorded by then. A round starts GATHER_MS after the first hand-in: the
// request that handed it in finishes first, and a burst of revocations is signed as one claim. Hand-ins
// during a round make one more. A round that fails is reported; the minute's reconcile signs and pushes
// what it left.
import { SIGN_CLAIM_PATH } from "../common/sidecar/routes";
import type { Post } from "./prober";

export const GATHER_MS = 50;

export class DeferredClaims {
  /** Accounts with a round waiting or under way, and whether another was asked for since it started. */
  private readonly rounds = new Map<string, { again: boolean }>();

  constructor(
    private readonly post: Post,
    private readonly warn: (message: string) => void,
    private readonly gatherMs = GATHER_MS,
  ) {}

  /** Has the account's claim signed and pushed soon; resolves once the rounds it caused have ended. */
  hand(account: string): Promise<void> {
    const pending = this.rounds.get(account);
    if (pending) {
      pending.again = true;
      return Promise.resolve();
    }
    const round = { again: true };
    this.rounds.set(account, round);
    return this.run(account, round);
  }

  private async run(account: string, round: { again: boolean }): Promise<void> {
    while (round.again) {
      await new Promise((resolve) => setTimeout(resolve, this.gatherMs));
      round.again = false;
      const answer = await this.post(SIGN_CLAIM_PATH, { account }).catch((err: unknown) => ({ status: 0, body: err instanceof Error ? err.message : String(err) }));
      if (answer.status !== 200) this.warn(`signing the claim of bus account ${account}: PocketBase answered ${answer.status || "nothing"}: ${answer.body.slice(0, 300)}`);
    }
    this.rounds.delete(account);
  }
}
