// What compressing the console's files costs the binary (issue 38 point 2; docs/decisions/085): the server
// process's CPU time per request (utime + stime from /proc, 10 ms ticks, over many requests) for the sign-in
// page's scripts and stylesheets, and the bytes sent. Two ways the stock binary can do it, side by side:
// the platform serving the build's precompressed files (its hooks), and a bare stock binary whose only hook
// is PocketBase's own `$apis.gzip()` middleware, compressing each response as it goes. Figures only.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONSOLE_DIR } from "../e2e/harness/browser";
import { startPlatform } from "../e2e/harness/platform";
import { freePort } from "../e2e/harness/ports";
import { BIN, processesWithArgument, stop } from "../e2e/harness/process";
import { signInFiles } from "../scripts/console-sizes.mjs";

const ROUNDS = 100;
/** Untimed rounds first: the first reads of each file, the hook VMs' first runs, a platform still starting. */
const WARMUP_ROUNDS = 20;
const CLOCK_TICKS_PER_S = 100;

/** utime + stime of `pid` in ms (fields 14 and 15 of /proc/PID/stat). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/** GET `url` with the given Accept-Encoding (none when empty); the body's bytes as received. */
function received(url: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {};
    request(url, { headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${response.statusCode}`))));
    }).on("error", reject).end();
  });
}

async function measure(label: string, base: string, pid: number, acceptEncoding: string): Promise<void> {
  const files = signInFiles(CONSOLE_DIR);
  const paths = [...files.js, ...files.css].map((file) => `/${file}`);
  for (let round = 0; round < WARMUP_ROUNDS; round++) for (const path of paths) await received(base + path, acceptEncoding);
  const before = cpuMs(pid);
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) for (const path of paths) bytes += await received(base + path, acceptEncoding);
  const requests = ROUNDS * paths.length;
  const perRequest = (cpuMs(pid) - before) / requests;
  console.log(`console assets: ${label.padEnd(44)} Accept-Encoding "${acceptEncoding}": ${perRequest.toFixed(3)} ms CPU/request, ` +
    `${(bytes / ROUNDS / 1024).toFixed(1)} KB per page's ${paths.length} files (n=${requests})`);
}

/** The stock binary with one hook file, `routerUse($apis.gzip())`, serving the built console. */
async function stockWithGzip(): Promise<{ url: string; pid: number; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "gzip-stock-"));
  mkdirSync(join(dir, "hooks"));
  writeFileSync(join(dir, "hooks/gzip.pb.js"), "routerUse($apis.gzip());\n");
  const port = await freePort();
  const child = spawn(BIN.pocketbase, ["serve", "--http", `127.0.0.1:${port}`, "--dir", join(dir, "data"),
    "--hooksDir", join(dir, "hooks"), "--publicDir", CONSOLE_DIR, "--hooksWatch=false"], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await received(`${url}/api/health`, "");
      break;
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, pid: child.pid as number, close: async () => { await stop(child); rmSync(dir, { recursive: true, force: true }); } };
}

const platform = await startPlatform({ env: { PB_PUBLIC_DIR: CONSOLE_DIR } });
try {
  const [pid] = processesWithArgument(platform.dataDir);
  for (const encoding of ["", "gzip", "br"]) await measure("platform hooks, precompressed files", platform.url, pid, encoding);
} finally {
  await platform.stop();
}
const stock = await stockWithGzip();
try {
  for (const encoding of ["gzip", ""]) await measure("stock binary + $apis.gzip(), on the fly", stock.url, stock.pid, encoding);
} finally {
  await stock.close();
}
