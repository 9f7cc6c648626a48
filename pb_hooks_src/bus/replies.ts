// nats-server's answers on $SYS.REQ.CLAIMS.UPDATE / DELETE (pure).

export interface ClaimsReply {
  ok: boolean;
  message: string;
}

/** `{ data: { code, message } }` on success, `{ error: { code, description } }` on failure. */
export function parseClaimsReply(text: string): ClaimsReply {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return { ok: false, message: "the bus sent an unreadable reply" };
  }
  const record = (typeof reply === "object" && reply !== null ? reply : {}) as Record<string, unknown>;
  const error = record.error as Record<string, unknown> | undefined;
  if (error) return { ok: false, message: String(error.description ?? "the bus refused the claim") };
  const data = record.data as Record<string, unknown> | undefined;
  return { ok: true, message: String(data?.message ?? "confirmed") };
}
