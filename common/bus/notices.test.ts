import { describe, expect, it } from "vitest";
import { MAX_NOTICE_SLOT, noticeSlotOf, otherSlotsDenied, parseNotice, userNoticeSubject } from "./notices";

/** NATS subject matching: `*` one token, `>` one or more trailing tokens. */
function matches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (i >= s.length || (p[i] !== "*" && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

const denied = (slot: number, subject: string) => otherSlotsDenied(slot).some((pattern) => matches(pattern, subject));

describe("otherSlotsDenied", () => {
  it("covers every other slot's subject and never the slot's own", () => {
    const slots = [1, 2, 3, 1023, 1024, 77_777, MAX_NOTICE_SLOT - 1, MAX_NOTICE_SLOT];
    for (const own of slots) {
      expect(denied(own, userNoticeSubject("ACCOUNT", own))).toBe(false);
      for (const other of slots) if (other !== own) expect(denied(own, userNoticeSubject("ACCOUNT", other))).toBe(true);
    }
  });

  it("covers a random sample of 20,000 other slots", () => {
    const own = 424_242;
    for (let i = 0; i < 20_000; i++) {
      const other = 1 + Math.floor(Math.random() * MAX_NOTICE_SLOT);
      expect(denied(own, userNoticeSubject("ACCOUNT", other))).toBe(other !== own);
    }
  });

  it("leaves the organization's own subjects alone", () => {
    expect(denied(5, "_PN.ACCOUNT.account")).toBe(false);
    expect(denied(5, "_PN.ACCOUNT.overlay")).toBe(false);
  });

  it("refuses a slot outside the range", () => {
    expect(() => otherSlotsDenied(0)).toThrow(RangeError);
    expect(() => userNoticeSubject("A", MAX_NOTICE_SLOT + 1)).toThrow(RangeError);
  });
});

describe("noticeSlotOf and parseNotice", () => {
  it("read the tag and the payload, and nothing else", () => {
    expect(noticeSlotOf(["other", "notice-slot:12"])).toBe(12);
    expect(noticeSlotOf(["notice-slot:0", "notice-slot:x"])).toBeUndefined();
    expect(noticeSlotOf(undefined)).toBeUndefined();
    expect(parseNotice('{"changed":"bus_user","revision":"r1"}')).toEqual({ changed: "bus_user", revision: "r1" });
    expect(parseNotice("not json")).toBeUndefined();
  });
});
