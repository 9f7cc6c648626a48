// The key material enrollment and sync keep on disk: the bus creds file and the overlay config. Each
// file's revision is the sha256 of its text, the same digest GET /api/me/identity serves, so a restarted
// agent knows whether what it holds is current without downloading it again.
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import type { StatePaths } from "../state-paths";
import { writeFileAtomic } from "../lib/files";
import { overlayFiles } from "../overlay/config-files";

export const revisionOf = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** The overlay config enrollment writes for the overlay manager's first start (it owns the file after that). */
export const overlayConfigPath = (paths: StatePaths): string => overlayFiles(paths.overlayDir).config;

/** The revision of the text at `path`, or undefined without a file. */
export function revisionOnDisk(path: string): string | undefined {
  try {
    return revisionOf(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** Writes the text (0600, atomically), or removes the file when the identity is gone. */
export function keepMaterial(path: string, text: string | undefined): void {
  if (text === undefined) rmSync(path, { force: true });
  else writeFileAtomic(path, text);
}
