// Files the agent writes (session, creds, overlay config) are replaced atomically: a reader sees the old
// text or the new one, never a half-written file, even across a power cut; and never readable by others.
import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Writes `data` to `path` through a 0600 temp file in the same directory, fsynced, then renamed over it. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  // "wx": never follow or reuse an existing file at the temp name.
  const handle = await open(temp, "wx", mode);
  try {
    try {
      await handle.writeFile(data);
      // The mode given to open is masked by the umask; 0600 must hold whatever the umask.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDirectory(dir);
}

/** The rename itself is durable only once the directory entry is on disk. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
