// Change notices (issue 37, docs/decisions/089-change-notices-over-the-bus.md): the control plane tells a
// device, or an organization's sites, that something of theirs changed, so they re-read it at once instead
// of at their next poll. A notice carries no secret: what changed and a revision.
//
// Route: the platform's $SYS account publishes `_PN.<account>.…` and exports `_PN.*.>` behind activation
// tokens; each organization's account imports exactly `_PN.<its account>.>` with a token the platform signs
// for it. Inside the account a bus user's own notices arrive on `_PN.<account>.u.<b1>.….<b20>`, the bits of
// its notice slot (a number unique in the organization). Its credential denies, for each bit position, the
// subjects that agree with its own bits before it and differ at it: twenty patterns that together cover
// every other slot's subject and never its own, which nats-server's deny-before-allow rule could not
// otherwise express ("every subject but mine"). Publishing under `_PN.>` is denied to every tenant user.
export const NOTICE_ROOT = "_PN";
/** Bits of a notice slot: slots 1 … 2^20 - 1 per organization. */
export const NOTICE_SLOT_BITS = 20;
export const MAX_NOTICE_SLOT = 2 ** NOTICE_SLOT_BITS - 1;
/** The credential tag naming its notice slot (nats `tags`, lower case: nats-server folds tags). */
export const NOTICE_SLOT_TAG = "notice-slot:";

/** What the $SYS account exports: every organization's notices; a token scopes each import to one account. */
export const NOTICE_EXPORT_SUBJECT = `${NOTICE_ROOT}.*.>`;
export const NOTICE_IMPORT_NAME = "platform-notices";

/** The part of the export one account imports (and its activation token names). */
export function noticeImportSubject(accountPub: string): string {
  return `${NOTICE_ROOT}.${accountPub}.>`;
}

function bitsOf(slot: number): string[] {
  if (!Number.isSafeInteger(slot) || slot < 1 || slot > MAX_NOTICE_SLOT) throw new RangeError(`notice slot ${slot} is outside 1…${MAX_NOTICE_SLOT}`);
  return slot.toString(2).padStart(NOTICE_SLOT_BITS, "0").split("");
}

/** A bus user's own notices; `accountPub` may be `*` (a subscriber's account is its only import). */
export function userNoticeSubject(accountPub: string, slot: number): string {
  return `${NOTICE_ROOT}.${accountPub}.u.${bitsOf(slot).join(".")}`;
}

/** The account's claim changed: sites refresh the claim their leaf holds. */
export function accountNoticeSubject(accountPub: string): string {
  return `${NOTICE_ROOT}.${accountPub}.account`;
}

/** An overlay blocklist of the organization changed: every host's served config with it. */
export function overlayNoticeSubject(accountPub: string): string {
  return `${NOTICE_ROOT}.${accountPub}.overlay`;
}

/** The subscribe denials that cover every other slot's notice subject and not the slot's own. */
export function otherSlotsDenied(slot: number): string[] {
  const bits = bitsOf(slot);
  return bits.map((bit, position) => {
    const flipped = bit === "0" ? "1" : "0";
    const tail = position < NOTICE_SLOT_BITS - 1 ? ".>" : "";
    return [`${NOTICE_ROOT}.*.u`, ...bits.slice(0, position), flipped].join(".") + tail;
  });
}

/** The notice slot a credential's JWT claims carry in their tags, or undefined. */
export function noticeSlotOf(tags: unknown): number | undefined {
  if (!Array.isArray(tags)) return undefined;
  for (const tag of tags) {
    if (typeof tag !== "string" || !tag.startsWith(NOTICE_SLOT_TAG)) continue;
    const slot = Number(tag.slice(NOTICE_SLOT_TAG.length));
    if (Number.isSafeInteger(slot) && slot >= 1 && slot <= MAX_NOTICE_SLOT) return slot;
  }
  return undefined;
}

/** What a notice says: which part changed and its revision (an opaque text that differs after each change). */
export interface Notice {
  changed: "bus_user" | "overlay_host" | "thing" | "account" | "overlay";
  revision: string;
}

export function parseNotice(text: string): Notice | undefined {
  try {
    const value = JSON.parse(text) as Partial<Notice>;
    return typeof value.changed === "string" && typeof value.revision === "string" ? { changed: value.changed, revision: value.revision } : undefined;
  } catch {
    return undefined;
  }
}
