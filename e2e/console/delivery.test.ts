// How the real binary sends the console (issue 38 point 2, docs/console.md "Budgets and figures"): the
// sign-in page's scripts and stylesheets cross the wire as the build's brotli or gzip files when the
// client accepts them, within the sign-in budgets counted as bytes received (scripts/console-sizes.mjs
// counts them as gzip of the built files); a client that accepts no encoding gets the identical files
// unencoded. Hashed assets are cached for a year, index.html is revalidated. Chromium, loading the sign-in
// page cold, receives every script and stylesheet encoded and within the same budgets; index.html asks for
// its stylesheets and the logo before any script, paints the card with the operator's logo before any
// script has run, and the card goes once the console has mounted.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { CONSOLE_DIR, failedResponses, launchBrowser } from "../harness/browser";
import { usePlatform } from "../harness/platform";
import { BUDGETS, signInFiles } from "../../scripts/console-sizes.mjs";

const platform = usePlatform(() => ({ env: { PB_PUBLIC_DIR: CONSOLE_DIR } }));
const files = signInFiles(CONSOLE_DIR);
const IMMUTABLE = "public, max-age=31536000, immutable";

interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it crossed the wire: not decoded. */
  body: Buffer;
}

/** GET with exactly the given request headers; node:http decodes nothing, unlike fetch. */
function get(path: string, headers: Record<string, string> = {}): Promise<Received> {
  return new Promise((resolve, reject) => {
    request(`${platform.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject).end();
  });
}

const DECODERS: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

describe("the sign-in page's scripts and stylesheets over HTTP", () => {
  for (const [acceptEncoding, expected] of [["gzip, deflate, br, zstd", "br"], ["gzip, deflate", "gzip"]] as const) {
    it(`are sent ${expected} to a client accepting "${acceptEncoding}", within the budgets as received`, async () => {
      const received = { js: 0, css: 0 };
      for (const kind of ["js", "css"] as const) {
        for (const file of files[kind]) {
          const response = await get(`/${file}`, { "Accept-Encoding": acceptEncoding });
          expect(response.status, file).toBe(200);
          expect(response.headers["content-encoding"], file).toBe(expected);
          expect(response.headers["content-type"], file).toBe(kind === "js" ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8");
          expect(response.headers.vary, file).toContain("Accept-Encoding");
          expect(DECODERS[expected](response.body).equals(readFileSync(join(CONSOLE_DIR, file))), file).toBe(true);
          received[kind] += response.body.length;
        }
      }
      console.log(`sign-in page as received (${expected}): JS ${received.js} bytes, CSS ${received.css} bytes`);
      expect(received.js).toBeLessThanOrEqual(BUDGETS.signInJs);
      expect(received.css).toBeLessThanOrEqual(BUDGETS.signInCss);
    });
  }

  it("are sent unencoded and identical to a client that accepts no encoding, or refuses both", async () => {
    const requests: Array<Record<string, string>> = [{}, { "Accept-Encoding": "identity" }, { "Accept-Encoding": "br;q=0, gzip;q=0" }];
    for (const headers of requests) {
      for (const file of [...files.js, ...files.css]) {
        const response = await get(`/${file}`, headers);
        expect(response.status, file).toBe(200);
        expect(response.headers["content-encoding"], file).toBeUndefined();
        expect(response.body.equals(readFileSync(join(CONSOLE_DIR, file))), file).toBe(true);
      }
    }
  });

  it("are cached for a year, and keep the console's security headers", async () => {
    for (const file of [...files.js, ...files.css]) {
      for (const headers of [{}, { "Accept-Encoding": "br" }] as Array<Record<string, string>>) {
        const response = await get(`/${file}`, headers);
        expect(response.headers["cache-control"], file).toBe(IMMUTABLE);
        expect(response.headers["x-content-type-options"], file).toBe("nosniff");
        expect(response.headers["content-security-policy"], file).toContain("script-src 'self'");
      }
    }
  });
});

describe("what is not a hashed asset", () => {
  it("index.html, at / and at the console's routes, is revalidated", async () => {
    for (const path of ["/", "/signin", "/things"]) {
      const response = await get(path, { "Accept-Encoding": "gzip, deflate, br" });
      expect(response.status, path).toBe(200);
      expect(response.headers["content-type"], path).toContain("text/html");
      expect(response.headers["cache-control"], path).toBe("no-cache");
    }
  });

  it("index.html asks for what its first paint needs (stylesheets, the logo) before any script", async () => {
    const html = (await get("/signin")).body.toString("utf8");
    const firstScript = html.search(/<script |<link rel="modulepreload"/);
    const needed = [...html.matchAll(/<link rel="stylesheet"[^>]*>|<link rel="preload" href="\/branding\/logo.svg"[^>]*>/g)];
    expect(needed.length).toBe(files.css.length + 2); // the built stylesheets, theme.css and the logo
    for (const link of needed) expect(link.index, link[0]).toBeLessThan(firstScript);
  });

  it("a missing asset gets the index fallback, neither encoded nor cached for a year", async () => {
    const response = await get("/assets/index-NoSuchHash.js", { "Accept-Encoding": "br, gzip" });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["cache-control"]).toBe("no-cache");
  });
});

describe("chromium loading the sign-in page cold", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it("receives every script and stylesheet encoded, within the budgets as received", async () => {
    const context = await browser.newContext({ baseURL: platform.url });
    const page = await context.newPage();
    const failures = failedResponses(page);
    const sizes: Array<Promise<{ kind: "js" | "css"; encoding: string | undefined; bytes: number }>> = [];
    page.on("requestfinished", (finished) => {
      const kind = /\/assets\/[^/]+\.(js|css)$/.exec(new URL(finished.url()).pathname)?.[1] as "js" | "css" | undefined;
      if (!kind) return;
      sizes.push((async () => {
        const response = await finished.response();
        return { kind, encoding: await response?.headerValue("content-encoding") ?? undefined, bytes: (await finished.sizes()).responseBodySize };
      })());
    });
    await page.goto("/signin");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const loaded = await Promise.all(sizes);
    await context.close();

    expect(failures).toEqual([]);
    expect(loaded.filter((l) => l.kind === "js").length).toBeGreaterThanOrEqual(files.js.length);
    for (const file of loaded) expect(["br", "gzip"], JSON.stringify(file)).toContain(file.encoding);
    const total = (kind: "js" | "css") => loaded.filter((l) => l.kind === kind).reduce((sum, l) => sum + l.bytes, 0);
    console.log(`sign-in page in chromium: JS ${total("js")} bytes, CSS ${total("css")} bytes received (${loaded[0]?.encoding})`);
    expect(total("js")).toBeLessThanOrEqual(BUDGETS.signInJs);
    expect(total("css")).toBeLessThanOrEqual(BUDGETS.signInCss);
  });

  it("paints the card with the operator's logo from index.html alone, and hides it once the console mounts", async () => {
    const withoutScripts = await browser.newContext({ baseURL: platform.url, javaScriptEnabled: false });
    const still = await withoutScripts.newPage();
    await still.goto("/signin");
    const card = still.locator(".boot-card img");
    await card.waitFor();
    expect(await card.getAttribute("src")).toBe("/branding/logo.svg");
    // decode() settles once the image has loaded, and rejects when it cannot.
    expect(await card.evaluate(async (img: HTMLImageElement) => (await img.decode(), img.naturalWidth))).toBeGreaterThan(0);
    await withoutScripts.close();

    const context = await browser.newContext({ baseURL: platform.url });
    const page = await context.newPage();
    await page.goto("/signin");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.locator(".boot").isHidden()).toBe(true);
    await context.close();
  });
});
