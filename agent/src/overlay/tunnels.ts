// The tunnels a running nebula holds, as its log reports them (nebula-log.ts): the peers' overlay
// addresses. Emptied whenever nebula (re)starts: a new process holds no tunnel.
import { tunnelEvent } from "./nebula-log";

export class Tunnels {
  private readonly up = new Set<string>();

  /** Feeds one log line; true when the line reported a tunnel event. */
  observe(line: string): boolean {
    const event = tunnelEvent(line);
    if (!event) return false;
    for (const addr of event.vpnAddrs) {
      if (event.kind === "up") this.up.add(addr);
      else this.up.delete(addr);
    }
    return true;
  }

  clear(): void {
    this.up.clear();
  }

  get count(): number {
    return this.up.size;
  }

  /** True when a tunnel to one of `addrs` is up. */
  anyUp(addrs: readonly string[]): boolean {
    return addrs.some((addr) => this.up.has(addr));
  }
}
