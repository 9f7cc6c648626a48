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

/** The name of the server that sent a system API reply (`server.name`); "" when it names none. */
export function replyServer(text: string): string {
  try {
    const reply = JSON.parse(text) as { server?: { name?: unknown } };
    return typeof reply.server?.name === "string" ? reply.server.name : "";
  } catch {
    return "";
  }
}

/**
 * A claim pushed to a cluster: confirmed when every node that answered the ping before it confirmed it.
 * The message names the nodes, so bus_status says where the claim is in force and where it is not.
 */
export function clusterClaimsOutcome(upNodes: readonly string[], replies: readonly string[], configuredNodes: number): ClaimsReply {
  const confirmed: string[] = [];
  const refusals: string[] = [];
  for (const text of replies) {
    const server = replyServer(text) || "a node";
    const outcome = parseClaimsReply(text);
    if (outcome.ok) confirmed.push(server);
    else refusals.push(`${server} refused it: ${outcome.message}`);
  }
  const missing = upNodes.filter((node) => !confirmed.includes(node) && !refusals.some((r) => r.startsWith(`${node} `)));
  const by = `${CONFIRMED_BY} ${confirmed.length} of ${configuredNodes} nodes${confirmed.length ? `: ${[...confirmed].sort().join(", ")}` : ""}`;
  const problems = [...refusals, ...missing.map((node) => `${node} did not answer`)];
  if (problems.length > 0 || confirmed.length === 0) return { ok: false, message: [...problems, by].join("; ") };
  const down = configuredNodes - confirmed.length;
  return { ok: true, message: down > 0 ? `${by} (every node up; ${down} down, pushed to it when it is back)` : by };
}

const CONFIRMED_BY = "confirmed by";

/**
 * The nodes a cluster outcome (a bus_status written from clusterClaimsOutcome) names as having confirmed
 * the claim; none for any other status (a refusal, a single server's reply, a bus that did not answer).
 */
export function confirmedNodes(status: string): string[] {
  const names = new RegExp(`(?:^|; )${CONFIRMED_BY} \\d+ of \\d+ nodes: ([^;(]+)`).exec(status)?.[1];
  return names === undefined ? [] : names.split(",").map((name) => name.trim()).filter((name) => name !== "");
}
