import { describe, expect, it } from "vitest";
import { activeTransition, combineEffects, type WriteEffects } from "./effects";

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
    combined.before?.(tx, undefined);
    combined.after?.(tx, undefined);
    expect(calls).toEqual(["a.before", "a.after", "b.after"]);
  });
});

describe("activeTransition", () => {
  const row = (active: boolean) => ({ getBool: (field: string) => field === "active" && active }) as unknown as core.Record;

  it("is judged against the committed row, and is none on create or without a change", () => {
    expect(activeTransition(row(true), row(false))).toBe("deactivated");
    expect(activeTransition(row(false), row(true))).toBe("reactivated");
    expect(activeTransition(row(true), row(true))).toBeUndefined();
    expect(activeTransition(row(false), row(false))).toBeUndefined();
    expect(activeTransition(undefined, row(false))).toBeUndefined();
  });
});
