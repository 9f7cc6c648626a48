// Reads tunnel events from nebula's log lines (text format, as the platform's configs set: `logging.format:
// text`). Nebula 1.11 logs every tunnel it completes and every one it tears down at info level, each with
// the peer's overlay addresses; docs/overlay.md "The agent's nebula" says why the log and not ssh or stats.

export type TunnelEvent = { kind: "up" | "down"; vpnAddrs: string[] };

/** Messages that end a tunnel (connection_manager.go, outside.go); each line carries the peer's vpnAddrs. */
const DOWN_MESSAGES = new Set([
  "Close tunnel received, tearing down.",
  "Remote certificate is blocked, tearing down the tunnel",
  "Remote certificate is no longer valid, tearing down the tunnel",
  "Dropping tunnel due to inactivity",
  "Dropping tunnel, message counter is exhausted",
]);

const MSG = /(?:^|\s)msg=("(?:[^"\\]|\\.)*"|\S+)/;
// A slice is `[a b]`, quoted when it holds a space: vpnAddrs=[10.42.7.1] or vpnAddrs="[10.42.7.1 fd00::1]".
const VPN_ADDRS = /(?:^|\s)vpnAddrs=(?:"\[([^\]]*)\]"|\[([^\]\s]*)\])/;

function unquote(value: string): string {
  return value.startsWith('"') ? (JSON.parse(value) as string) : value;
}

/** The tunnel event a line reports, or null (most lines report none). */
export function tunnelEvent(line: string): TunnelEvent | null {
  const msg = MSG.exec(line);
  const addrs = VPN_ADDRS.exec(line);
  if (!msg || !addrs) return null;
  const text = unquote(msg[1]);
  const vpnAddrs = (addrs[1] ?? addrs[2]).split(" ").filter(Boolean);
  if (vpnAddrs.length === 0) return null;
  // Both ends log it when a handshake completes (the responder at stage 1, the initiator at stage 2).
  if (text.startsWith("Handshake message received")) return { kind: "up", vpnAddrs };
  // "Tunnel status" is also logged (at debug) for live tunnels: only the dead verdict ends one.
  if (DOWN_MESSAGES.has(text) || (text === "Tunnel status" && line.includes("state:dead"))) return { kind: "down", vpnAddrs };
  return null;
}
