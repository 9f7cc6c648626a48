// The overlay's files under state_dir/overlay (state-paths.ts): config.yml (what nebula runs), last-good.yml
// (the rollback target) and candidate.yml (a new config while `nebula -test` judges it). Each holds the
// host's private key: written with lib/files.ts writeFileAtomic (0600, in a 0700 folder).
import { join } from "node:path";

export interface OverlayFiles {
  config: string;
  lastGood: string;
  candidate: string;
}

export function overlayFiles(overlayDir: string): OverlayFiles {
  return { config: join(overlayDir, "config.yml"), lastGood: join(overlayDir, "last-good.yml"), candidate: join(overlayDir, "candidate.yml") };
}
