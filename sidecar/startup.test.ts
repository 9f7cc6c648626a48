import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { watchParent } from "./lifecycle";
import { parseStartupLine, readFirstLine, writeStateFile } from "./startup";

const TOKEN = "secret-token-0123456789";
const dir = mkdtempSync(join(tmpdir(), "sidecar-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("startup line", () => {
  it("parses token and state file", () => {
    expect(parseStartupLine(JSON.stringify({ token: TOKEN, stateFile: "/x" }))).toEqual({ token: TOKEN, stateFile: "/x" });
  });

  it("refuses bad lines without quoting them", () => {
    for (const line of [`{"token":"${TOKEN}"`, JSON.stringify({ token: TOKEN }), JSON.stringify({ token: "short", stateFile: "/x" }), "null"]) {
      expect(() => parseStartupLine(line)).toThrow();
      try {
        parseStartupLine(line);
      } catch (err) {
        expect((err as Error).message).not.toContain(TOKEN);
      }
    }
  });

  it("reads the first line and keeps the stream flowing", async () => {
    const input = new PassThrough();
    const line = readFirstLine(input, 1000);
    input.write('{"a":');
    input.write('1}\nrest');
    expect(await line).toBe('{"a":1}');
    expect(input.readableFlowing).toBe(true);
  });

  it("fails when stdin ends first or nothing comes", async () => {
    const ended = new PassThrough();
    const early = readFirstLine(ended, 1000);
    ended.end("no newline");
    await expect(early).rejects.toThrow("stdin closed");
    await expect(readFirstLine(new PassThrough(), 20)).rejects.toThrow("no startup line");
  });
});

describe("state file", () => {
  it("is written whole, private, with no temp file left", () => {
    const path = join(dir, "state.json");
    writeStateFile(path, { port: 1234, pid: 42 });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ port: 1234, pid: 42 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });
});

describe("watchParent", () => {
  it("reports stdin EOF once", async () => {
    const stdin = new PassThrough();
    const reasons: string[] = [];
    watchParent({ stdin, parentPid: () => 1, onGone: (r) => reasons.push(r) });
    stdin.end();
    await new Promise((r) => setTimeout(r, 20));
    expect(reasons).toEqual(["stdin closed"]);
  });

  it("reports a stdin that ended before it was watched", async () => {
    const stdin = new PassThrough();
    stdin.end();
    stdin.resume();
    await new Promise((r) => setTimeout(r, 20));
    const reasons: string[] = [];
    watchParent({ stdin, parentPid: () => 1, onGone: (r) => reasons.push(r) });
    await new Promise((r) => setTimeout(r, 20));
    expect(reasons).toEqual(["stdin closed"]);
  });

  it("reports a changed parent pid", async () => {
    let ppid = 100;
    const reasons: string[] = [];
    const stop = watchParent({ stdin: new PassThrough(), parentPid: () => ppid, onGone: (r) => reasons.push(r), pollMs: 5 });
    ppid = 1;
    await new Promise((r) => setTimeout(r, 30));
    stop();
    expect(reasons).toEqual(["parent process changed"]);
  });
});
