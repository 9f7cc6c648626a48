// Key-value sync inside `agent run`: started once the gateway has applied a leaf configuration (the hub's
// persistence domain comes from it), over the agent's own connection to the local leaf; its part of the
// `sync` check joins the gateway's.
import type { BusComponent } from "../../bus/component";
import type { AgentContext, Component } from "../../component";
import type { GatewayComponent } from "../component";
import { startKvSync, type KvSync } from "./sync";

/** How often to look whether the leaf configuration (and with it the hub domain) has been applied. */
const DOMAIN_LOOK_MS = 1_000;

export function startGatewayKv(context: AgentContext, gateway: GatewayComponent, bus: BusComponent): Component {
  const { mirrors, relays } = context.config.gateway.kv;
  if (mirrors.length === 0 && relays.length === 0) return { name: "kv", stop: async () => {} };
  let sync: KvSync | undefined;
  const begin = (hubDomain: string) => {
    sync = startKvSync({
      local: () => bus.current(),
      // Also the connection already open when sync starts: onConnected only hears later ones.
      onConnected: (listener) => {
        bus.onConnected(listener);
        const open = bus.current();
        if (open) listener(open);
      },
      hubDomain,
      mirrors,
      relays,
      stateDir: context.config.state_dir,
      logger: context.logger,
      registry: context.metrics.registry,
      uplinkUp: () => gateway.uplinkUp(),
    });
    gateway.addSyncPart(sync.check);
  };
  const timer = setInterval(() => {
    const domain = gateway.hubDomain();
    if (domain === undefined) return;
    clearInterval(timer);
    begin(domain);
  }, DOMAIN_LOOK_MS);
  return {
    name: "kv",
    stop: async () => {
      clearInterval(timer);
      await sync?.stop();
    },
  };
}
