// A gateway Thing and its GET /api/me/leaf-config answer; the site's leaf server exactly as a gateway agent
// writes it: the agent's own files (leaf.conf, the preload of account tokens, the uplink's creds;
// agent/src/gateway/apply.ts) run by the pinned nats-server from that folder (the config includes the
// preload by a relative path).
import { basename } from "node:path";
import type PocketBase from "pocketbase";
import type { LeafConfig } from "../../common/bus/leaf-config";
import { applyLeafConfig } from "../../agent/src/gateway/apply";
import { leafFiles, type LeafPings } from "../../agent/src/gateway/leaf-files";
import { postThing, type MadeThing } from "./agent";
import { startNatsServer, type NatsServer } from "./nats";
import { freePorts } from "./ports";
import { client, unique } from "./world";

/** A gateway Thing with a minted bus identity, created by `owner`; the Thing signs in and asks for its leaf config. */
export async function gatewayLeafConfig(platformUrl: string, owner: PocketBase): Promise<{ made: MadeThing; config: LeafConfig }> {
  const made = await postThing(owner, { name: unique("gateway"), bus: { mode: "auto" } });
  const device = client(platformUrl);
  await device.collection("things").authWithPassword(made.email, made.password);
  return { made, config: (await device.send("/api/me/leaf-config", {})) as LeafConfig };
}

/** Writes the leaf's files under `stateDir` (the caller removes it) and starts the leaf on free loopback ports. */
export async function startSiteLeaf(config: LeafConfig, stateDir: string, pings?: LeafPings): Promise<NatsServer> {
  const [port, monitorPort] = await freePorts(2);
  const places = { files: leafFiles(stateDir), listen: `127.0.0.1:${port}`, monitorPort, pings };
  applyLeafConfig(places, config);
  return startNatsServer({ configDir: places.files.dir, configFile: basename(places.files.config) });
}
