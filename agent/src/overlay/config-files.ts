// The overlay's files under state_dir/overlay (state-paths.ts): config.yml (what nebula runs), last-good.yml
// (the rollback target) and candidate.yml (a new config while `nebula -test` judges it). Each holds the
// host's private key: written 0600, atomically (a temporary file renamed over the target), in a 0700 folder.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface OverlayFiles {
  config: string;
  lastGood: string;
  candidate: string;
}

export function overlayFiles(overlayDir: string): OverlayFiles {
  return { config: join(overlayDir, "config.yml"), lastGood: join(overlayDir, "last-good.yml"), candidate: join(overlayDir, "candidate.yml") };
}

export function writePrivate(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  // writeFileSync keeps the mode of a file left over by a crash: set it explicitly.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** The file's text, or null when it does not exist. */
export function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
