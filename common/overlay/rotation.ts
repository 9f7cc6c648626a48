// Which rotation steps are refused, and the message the route returns verbatim on the 400 (spec 3.2). Pure.
export const ROTATION_STEPS = ["prepare", "commit", "finish"] as const;
export type RotationStep = (typeof ROTATION_STEPS)[number];
export type RotationState = "" | "prepared" | "committed";

/** An active host still holding a certificate of the outgoing CA: finish names it by id and name. */
export interface OutgoingHolder {
  id: string;
  name: string;
}

/**
 * The transition's refusal, or undefined when `step` may run in `state`. `holder` matters to finish only:
 * before commit every active host still holds a certificate of the outgoing (still issuing) CA, so the
 * refusal names one as well as the missing commit; after commit it is the one thing left to fix.
 */
export function transitionRefusal(state: RotationState, step: RotationStep, holder?: OutgoingHolder): string | undefined {
  if (step === "prepare" && state === "committed") return "the overlay CA rotation is committed: finish it before preparing another";
  if (step === "commit" && state === "") return "no overlay CA rotation is prepared: prepare before commit";
  if (step !== "finish") return undefined;
  if (state === "") return "no overlay CA rotation is under way: prepare and commit before finish";
  if (state === "prepared") {
    const notCommitted = "the overlay CA rotation is prepared but not committed: commit before finish";
    return holder ? `${notCommitted}; ${holding(holder)}` : notCommitted;
  }
  return holder ? `${holding(holder)}: run commit again to re-sign it` : undefined;
}

function holding(holder: OutgoingHolder): string {
  return `active host "${holder.name}" (id ${holder.id}) still holds a certificate of the outgoing overlay CA`;
}
