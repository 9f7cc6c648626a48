// Files the agent writes (session, creds, overlay config, service unit) are replaced atomically: a reader
// sees the old text or the new one, never a half-written file, even across a power cut; and the secrets
// are never readable by others. Synchronous: the files are small, and callers decide between two writes.
import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes `data` to `path` through a temp file in the same directory (created 0700 when missing), fsynced,
 * with `mode` whatever the umask, then renamed over it. On failure the old file stays and no temp is left.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    // "wx": never follow or reuse an existing file at the temp name.
    const fd = openSync(temp, "wx", mode);
    try {
      writeFileSync(fd, data);
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(dir);
}

/** The file's text, or undefined when it does not exist (any other error is thrown). */
export function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** The rename itself is durable only once the directory entry is on disk; a file system that cannot sync a directory is tolerated. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Nothing more to do: the rename happened, only its durability is unconfirmed.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
