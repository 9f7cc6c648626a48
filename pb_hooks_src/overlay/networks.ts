// overlay_networks writes (docs/overlay.md "Hosts and configs"): every writer's network must be able to hold
// hosts. Checked only when a host was written, a cidr such as "zzzz" saved on a network with hosts blocked
// every later write of those hosts, the CA rotation's commit included.
import { badRequest } from "../lib/errors";
import { HostError, overlayNetwork } from "./host-details";

/** Throws a 400 RouteError unless the network's cidr is IPv4 CIDR of /30 or wider. */
export function refuseUnusableNetwork(network: core.Record): void {
  try {
    overlayNetwork(network.getString("cidr"));
  } catch (err) {
    if (err instanceof HostError) throw badRequest(err.message);
    throw err;
  }
}
