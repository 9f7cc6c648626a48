// Change notices (common/bus/notices.ts): on every bus connection the agent subscribes to its own notice
// subject, read from its credential (the slot tag, the issuing account), and to its organization's
// subjects it acts on. A notice only starts what polling would have done later (a sync, a leaf
// configuration read), so one forged or repeated costs a request, never a change of state; tenant
// credentials cannot publish one anyway. A credential without a slot (minted before notices) subscribes
// to nothing and the agent polls until its renewal carries one.
import type { NatsConnection } from "@nats-io/transport-node";
import { accountNoticeSubject, noticeSlotOf, overlayNoticeSubject, parseNotice, userNoticeSubject, type Notice } from "../../../common/bus/notices";
import type { Logger } from "../lib/log";

export interface NoticeHandlers {
  /** The Thing's own bus user, key material, overlay host or state changed. */
  own(notice: Notice): void;
  /** The account's claim changed (a gateway refreshes its leaf's copy). */
  account?(notice: Notice): void;
  /** The organization's overlay blocklist changed. */
  overlay?(notice: Notice): void;
}

interface CredentialClaims {
  slot: number;
  account: string;
}

/** The notice slot and account a creds file's JWT names, or undefined. */
export function noticeTarget(creds: string): CredentialClaims | undefined {
  const jwt = /-----BEGIN NATS USER JWT-----\s*([^\s-][^\s]*)\s*-/.exec(creds)?.[1];
  if (!jwt) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as { nats?: { tags?: unknown; issuer_account?: unknown } };
    const slot = noticeSlotOf(payload.nats?.tags);
    const account = payload.nats?.issuer_account;
    return slot !== undefined && typeof account === "string" && account !== "" ? { slot, account } : undefined;
  } catch {
    return undefined;
  }
}

/** Subscribes on `nc` (the subscriptions end with it); false when the credential carries no slot. */
export function listenForNotices(nc: NatsConnection, creds: string, handlers: NoticeHandlers, logger: Logger): boolean {
  const target = noticeTarget(creds);
  if (!target) {
    logger.info("notices: the bus credential has no notice slot yet; polling only", {});
    return false;
  }
  const listen = (subject: string, handle: ((notice: Notice) => void) | undefined) => {
    if (!handle) return;
    nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) {
          logger.warn("notices: subscription refused; polling only", { subject, error: err.message });
          return;
        }
        const notice = parseNotice(msg.string());
        if (!notice) return;
        logger.info("notices: the platform says something changed", { changed: notice.changed, revision: notice.revision });
        handle(notice);
      },
    });
  };
  logger.info("notices: listening", { slot: target.slot });
  listen(userNoticeSubject(target.account, target.slot), handlers.own);
  listen(accountNoticeSubject(target.account), handlers.account);
  listen(overlayNoticeSubject(target.account), handlers.overlay);
  return true;
}
