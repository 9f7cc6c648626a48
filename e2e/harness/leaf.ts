// A site's leaf server exactly as a gateway agent writes it: the agent's own files (leaf.conf, the preload
// of account tokens, the uplink's creds; agent/src/gateway/apply.ts) from a GET /api/me/leaf-config answer,
// run by the pinned nats-server from that folder (the config includes the preload by a relative path).
import { basename } from "node:path";
import type { LeafConfig } from "../../pb_hooks_src/bus/leaf-config";
import { applyLeafConfig } from "../../agent/src/gateway/apply";
import { leafFiles, type LeafPings } from "../../agent/src/gateway/leaf-files";
import { startNatsServer, type NatsServer } from "./nats";
import { freePorts } from "./ports";

/** Writes the leaf's files under `stateDir` (the caller removes it) and starts the leaf on free loopback ports. */
export async function startSiteLeaf(config: LeafConfig, stateDir: string, pings?: LeafPings): Promise<NatsServer> {
  const [port, monitorPort] = await freePorts(2);
  const places = { files: leafFiles(stateDir), listen: `127.0.0.1:${port}`, monitorPort, pings };
  applyLeafConfig(places, config);
  return startNatsServer({ configDir: places.files.dir, configFile: basename(places.files.config) });
}
