// The pinned Nebula binaries for tests that judge what the platform issues, and a scratch folder for
// the files they read and write.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { BIN } from "./process";

export const NEBULA = BIN.nebula;
export const NEBULA_CERT = BIN.nebulaCert;

export interface NebulaWorkspace {
  /** Runs a binary to completion (bounded) and returns its status and combined output. */
  run(bin: string, args: string[]): { code: number | null; out: string };
  /** Writes `text` into a new file of the scratch folder and returns its path. */
  file(name: string, text: string): string;
  /** A new path in the scratch folder, for a binary to write. */
  path(name: string): string;
}

/** A scratch folder made before the file's tests and removed after them; the binaries must exist. */
export function useNebulaWorkspace(prefix: string): NebulaWorkspace {
  let dir = "";
  let count = 0;
  // Every name gets a sequence number, so no two calls ever share a file.
  const path = (name: string) => join(dir, `${count++}-${name}`);
  beforeAll(() => {
    for (const bin of [NEBULA, NEBULA_CERT]) if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`make binaries\``);
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    run(bin, args) {
      const r = spawnSync(bin, args, { encoding: "utf8", timeout: 15_000 });
      return { code: r.status, out: r.stdout + r.stderr };
    },
    file(name, text) {
      const target = path(name);
      writeFileSync(target, text);
      return target;
    },
    path,
  };
}
