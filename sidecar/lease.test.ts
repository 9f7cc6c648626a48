import { describe, expect, it } from "vitest";
import { LEASE_MARGIN_MS, afterAttempt } from "./lease";

const TTL = 10_000;
const held = { held: true, untilMs: 20_000, holder: "me", detail: "" };

describe("afterAttempt", () => {
  it("holds the lease until one TTL after the attempt began, less the margin, when the bus took our write", () => {
    expect(afterAttempt({ held: false, untilMs: 0, holder: "", detail: "x" }, { kind: "ours", holder: "me", detail: "" }, 15_000, TTL)).toEqual({
      held: true,
      untilMs: 15_000 + TTL - LEASE_MARGIN_MS,
      holder: "me",
      detail: "",
    });
  });

  it("lets go at once when another control plane holds it", () => {
    expect(afterAttempt(held, { kind: "theirs", holder: "other", detail: "the write lease is held by other" }, 15_000, TTL)).toEqual({
      held: false,
      untilMs: 0,
      holder: "other",
      detail: "the write lease is held by other",
    });
  });

  it("keeps what it had, and its time, while the bus does not answer: the time alone then ends it", () => {
    expect(afterAttempt(held, { kind: "unanswered", holder: "", detail: "the bus did not answer" }, 15_000, TTL)).toEqual({ ...held, detail: "the bus did not answer" });
  });
});
