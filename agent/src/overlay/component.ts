// The overlay side of `agent run`: nebula managed from the Thing's overlay config (the one enrollment left
// on disk, then each one platform sync hands over), and the overlay check. Off: only the check, skipped.
import { parseDuration } from "../../../common/config/duration";
import type { PlatformComponent } from "../platform/component";
import type { AgentContext, Component } from "../component";
import { overlayCheck } from "./check";
import { overlayFiles } from "./config-files";
import { createOverlayManager } from "./manager";

export async function startOverlay(context: AgentContext, platform: PlatformComponent): Promise<Component> {
  const { config, paths, logger, health } = context;
  const configPath = overlayFiles(paths.overlayDir).config;
  if (!config.overlay.enabled) {
    health.register(overlayCheck({ enabled: false, status: () => ({ configured: false, running: false, cached: false, rejected: null, deferred: null, unproven: false, tunnels: 0, exit: null }), configPath }));
    return { name: "overlay", stop: async () => {} };
  }
  const manager = createOverlayManager({
    nebula: { binary: config.overlay.nebula },
    overlayDir: paths.overlayDir,
    handshakeTimeoutMs: parseDuration(config.overlay.handshake_timeout),
    logger,
  });
  health.register(overlayCheck({ enabled: true, status: () => manager.status(), configPath }));
  await manager.start();
  platform.whenSyncing((sync) => sync.onOverlayConfig((yaml) => void manager.apply(yaml)));
  return { name: "overlay", stop: () => manager.stop() };
}
