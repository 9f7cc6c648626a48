import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./files";

const dir = mkdtempSync(join(tmpdir(), "agent-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("replaces a file with mode 0600 whatever the umask, leaving no temp file", async () => {
    const path = join(dir, "bus.creds");
    writeFileSync(path, "old", { mode: 0o644 });
    const umask = process.umask(0o000);
    try {
      await writeFileAtomic(path, "new text");
    } finally {
      process.umask(umask);
    }
    expect(readFileSync(path, "utf8")).toBe("new text");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["bus.creds"]);
  });

  it("leaves the old file and no temp file when the write fails", async () => {
    const path = join(dir, "missing-dir", "session.json");
    await expect(writeFileAtomic(path, "x")).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual(["bus.creds"]);
  });
});
