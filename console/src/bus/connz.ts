// Asks the hub which connections the caller's account holds (spec 4.4, decision 452): every server's
// answer to the account-scoped CONNZ, gathered for a moment over the caller's own bus connection.
import { connected } from "./client.svelte";
import { LEAF_CONNZ_REQUEST, LEAF_CONNZ_SUBJECT, type ConnzAnswer } from "./leaf";

/** How long the hub's servers are given to answer. */
export const CONNZ_WAIT_MS = 1_500;

export async function askConnz(): Promise<ConnzAnswer[]> {
  const answers: ConnzAnswer[] = [];
  const replies = await connected().requestMany(LEAF_CONNZ_SUBJECT, JSON.stringify(LEAF_CONNZ_REQUEST), { strategy: "timer", maxWait: CONNZ_WAIT_MS });
  for await (const reply of replies) answers.push(reply.json<ConnzAnswer>());
  return answers;
}
