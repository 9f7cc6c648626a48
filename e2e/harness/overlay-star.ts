// The setting the overlay e2e tests share: a lighthouse and two hosts (lh, a, b) in their own network
// namespaces on one bridge (netns.ts), and the three overlay hosts the platform issues for them in the
// world's org A network.
import { spawnSync } from "node:child_process";
import type { RecordModel } from "pocketbase";
import { createStar, type Star } from "./netns";
import type { World } from "./world";

export const LH_UNDERLAY = "192.0.2.1";
export type StarRole = "lh" | "a" | "b";

/** The three namespaces; names start with `prefix` and the pid, so parallel runs never share one. Throws when the machine cannot. */
export function createOverlayStar(prefix: string): { star: Star; ns: Record<StarRole, string> } {
  const ping = spawnSync("ping", ["-V"], { encoding: "utf8", timeout: 5_000 });
  if (ping.error || ping.status !== 0) throw new Error("`ping` is not installed: install iputils-ping (the issued firewall admits only ICMP inbound)");
  const star = createStar(`${prefix}${process.pid}`, [LH_UNDERLAY, "192.0.2.2", "192.0.2.3"]);
  const [lh, a, b] = star.members.map((m) => m.name);
  return { star, ns: { lh, a, b } };
}

/** Issues the lighthouse first (public endpoint LH_UNDERLAY:4242), so a's and b's configs name it, then a and b. */
export async function issueStarHosts(w: World, prefix: string, overlayIp: Record<StarRole, string>): Promise<Record<StarRole, RecordModel>> {
  const hosts = (await w.client("owner")).collection("overlay_hosts");
  const base = { organization: w.a.organization.id, network: w.a.overlay_networks.id, active: true };
  const lh = await hosts.create({ ...base, name: `${prefix}-lh`, overlay_ip: overlayIp.lh, is_lighthouse: true, public_endpoint: `${LH_UNDERLAY}:4242` });
  const a = await hosts.create({ ...base, name: `${prefix}-a`, overlay_ip: overlayIp.a });
  const b = await hosts.create({ ...base, name: `${prefix}-b`, overlay_ip: overlayIp.b });
  return { lh, a, b };
}
