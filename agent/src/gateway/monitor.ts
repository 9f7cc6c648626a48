// Reads of the leaf's loopback monitoring port (/varz, /leafz), each bounded; undefined when the port
// does not answer, so the series derived from it are omitted rather than zeroed (spec 4.4).
import { sendRequest } from "../lib/http-request";

export interface LeafView {
  /** Client connections to the leaf (devices and the agent). */
  connections: number;
  /** JetStream file and memory storage in use, bytes; undefined when JetStream is off. */
  persistenceBytes: number | undefined;
}

export interface UplinkView {
  connected: boolean;
  /** The hub's address as the leaf sees it, when connected. */
  hub?: string;
}

export interface LeafMonitor {
  leaf(): Promise<LeafView | undefined>;
  uplink(): Promise<UplinkView | undefined>;
}

const TIMEOUT_MS = 1_000;

/** `port` 0: no monitoring, every read answers undefined. */
export function leafMonitor(port: number): LeafMonitor {
  const read = async <T>(path: string): Promise<T | undefined> => {
    if (port === 0) return undefined;
    try {
      // node:http, not fetch (lib/http-request.ts says why).
      const answer = await sendRequest(`http://127.0.0.1:${port}${path}`, { method: "GET", headers: {}, timeoutMs: TIMEOUT_MS });
      return answer.status === 200 ? (JSON.parse(answer.text) as T) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    async leaf() {
      const varz = await read<{ connections?: number; jetstream?: { stats?: { memory?: number; storage?: number } } }>("/varz");
      if (varz === undefined) return undefined;
      const stats = varz.jetstream?.stats;
      return { connections: varz.connections ?? 0, persistenceBytes: stats ? (stats.storage ?? 0) + (stats.memory ?? 0) : undefined };
    },
    async uplink() {
      const leafz = await read<{ leafnodes?: number; leafs?: { ip?: string; port?: number }[] }>("/leafz");
      if (leafz === undefined) return undefined;
      const first = leafz.leafs?.[0];
      return { connected: (leafz.leafnodes ?? 0) > 0, hub: first?.ip ? `${first.ip}:${first.port ?? ""}` : undefined };
    },
  };
}
