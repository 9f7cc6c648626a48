import { describe, expect, it } from "vitest";
import { SIGN_CLAIM_PATH } from "../common/sidecar/routes";
import { DeferredClaims } from "./deferred-claims";
import type { PostAnswer } from "./prober";

/** A PocketBase stand-in: records each sign request, and answers it when told to. */
function pocketBase(status = 200) {
  const calls: { path: string; account: string }[] = [];
  const pending: Array<() => void> = [];
  const post = (path: string, body: unknown): Promise<PostAnswer> => {
    calls.push({ path, account: (body as { account: string }).account });
    return new Promise((resolve) => pending.push(() => resolve({ status, body: status === 200 ? "{}" : "the database is locked" })));
  };
  const answerAll = () => pending.splice(0).forEach((answer) => answer());
  return { calls, post, answerAll };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("claims signed after their write", () => {
  it("gathers the hand-ins of one account into one round, started after the gathering time", async () => {
    const pb = pocketBase();
    const claims = new DeferredClaims(pb.post, () => {}, 20);
    const rounds = [claims.hand("acc1"), claims.hand("acc1"), claims.hand("acc1")];
    await settle(5);
    expect(pb.calls).toEqual([]);
    await settle(40);
    expect(pb.calls).toEqual([{ path: SIGN_CLAIM_PATH, account: "acc1" }]);
    pb.answerAll();
    await Promise.all(rounds);
    expect(pb.calls).toHaveLength(1);
  });

  it("a hand-in during a round makes one more round, which signs what was committed meanwhile", async () => {
    const pb = pocketBase();
    const claims = new DeferredClaims(pb.post, () => {}, 5);
    const first = claims.hand("acc1");
    await settle(20);
    expect(pb.calls).toHaveLength(1);
    void claims.hand("acc1");
    void claims.hand("acc1");
    pb.answerAll();
    await settle(20);
    expect(pb.calls).toHaveLength(2);
    pb.answerAll();
    await first;
    expect(pb.calls).toHaveLength(2);
  });

  it("accounts have rounds of their own", async () => {
    const pb = pocketBase();
    const claims = new DeferredClaims(pb.post, () => {}, 5);
    const rounds = [claims.hand("acc1"), claims.hand("acc2")];
    await settle(20);
    expect(pb.calls.map((call) => call.account).sort()).toEqual(["acc1", "acc2"]);
    pb.answerAll();
    await Promise.all(rounds);
  });

  it("reports a round PocketBase refused or could not answer, and takes the next hand-in afresh", async () => {
    const warnings: string[] = [];
    const refused = pocketBase(500);
    const claims = new DeferredClaims(refused.post, (message) => warnings.push(message), 1);
    const round = claims.hand("acc1");
    await settle(10);
    refused.answerAll();
    await round;
    expect(warnings).toEqual(["signing the claim of bus account acc1: PocketBase answered 500: the database is locked"]);

    const unreachable = new DeferredClaims(() => Promise.reject(new Error("connect ECONNREFUSED")), (message) => warnings.push(message), 1);
    await unreachable.hand("acc2");
    expect(warnings[1]).toBe("signing the claim of bus account acc2: PocketBase answered nothing: connect ECONNREFUSED");
    const again = unreachable.hand("acc2");
    await again;
    expect(warnings).toHaveLength(3);
  });
});
