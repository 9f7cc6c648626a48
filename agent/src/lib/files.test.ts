import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readIfPresent, writeFileAtomic } from "./files";

const dir = mkdtempSync(join(tmpdir(), "agent-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("replaces a file with mode 0600 whatever the umask, leaving no temp file", () => {
    const path = join(dir, "bus.creds");
    writeFileSync(path, "old", { mode: 0o644 });
    const umask = process.umask(0o000);
    try {
      writeFileAtomic(path, "new text");
    } finally {
      process.umask(umask);
    }
    expect(readFileSync(path, "utf8")).toBe("new text");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["bus.creds"]);
  });

  it("creates a missing directory 0700", () => {
    const path = join(dir, "state", "overlay", "config.yml");
    writeFileAtomic(path, "pki: {}\n");
    expect(readFileSync(path, "utf8")).toBe("pki: {}\n");
    expect(statSync(join(dir, "state", "overlay")).mode & 0o777).toBe(0o700);
  });

  it("leaves what is there and no temp file when the write fails", () => {
    const blocked = join(dir, "blocked");
    mkdirSync(join(blocked, "session.json"), { recursive: true });
    expect(() => writeFileAtomic(join(blocked, "session.json"), "x")).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(blocked)).toEqual(["session.json"]);
  });
});

describe("readIfPresent", () => {
  it("reads a file, and undefined for a missing one", () => {
    expect(readIfPresent(join(dir, "bus.creds"))).toBe("new text");
    expect(readIfPresent(join(dir, "nothing-here"))).toBeUndefined();
  });
});
