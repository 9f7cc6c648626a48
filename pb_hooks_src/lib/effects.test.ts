import { describe, expect, it } from "vitest";
import { combineEffects, type WriteEffects } from "./effects";

describe("combineEffects", () => {
  it("passes a single part or none through", () => {
    const one: WriteEffects = { after: () => undefined };
    expect(combineEffects(undefined, one, undefined)).toBe(one);
    expect(combineEffects(undefined, undefined)).toBeUndefined();
  });

  it("runs every part's before, then every part's after, in order", () => {
    const calls: string[] = [];
    const tx = {} as CoreApp;
    const combined = combineEffects(
      { before: () => calls.push("a.before"), after: () => calls.push("a.after") },
      { after: () => calls.push("b.after") },
    )!;
    combined.before?.(tx);
    combined.after?.(tx);
    expect(calls).toEqual(["a.before", "a.after", "b.after"]);
  });
});
