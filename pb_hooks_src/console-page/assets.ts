// How the console's files travel (issue 38 point 2; docs/decisions/085-precompressed-console-assets.md):
// the hashed scripts and stylesheets under /assets/ are cached for a year and, when the browser accepts it,
// sent as the .br or .gz file the console build wrote beside them; every other page of the console
// (index.html, served for each of its routes) is revalidated, so a new release is picked up. Pure: the
// middleware (middleware.ts) looks the files up and sets the headers.

/** A hashed build output: its name changes whenever its content does. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html and anything else unhashed: kept, but asked for again (a 304 when unchanged). */
export const REVALIDATE = "no-cache";

/** The encodings the build writes, best first, with the file suffix of each. */
export const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
export type EncodingName = (typeof ENCODINGS)[number]["name"];

const CONTENT_TYPES: Record<string, string> = {
  // As Go's mime table names them, which the stock static route sends for the identity file.
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

// One file directly under assets/, as Vite names it ([name]-[hash].ext): no directory, no "..".
const ASSET = /^assets\/([A-Za-z0-9_-][A-Za-z0-9_.-]*)\.(js|css)$/;

export interface Asset {
  /** The path under the public directory, as the static route's {path} holds it. */
  path: string;
  contentType: string;
}

/** The script or stylesheet `path` (the static route's {path} value) names, or undefined. */
export function assetOf(path: string): Asset | undefined {
  const match = ASSET.exec(path);
  if (!match || match[1].includes("..")) return undefined;
  return { path, contentType: CONTENT_TYPES[match[2]] };
}

/**
 * The encodings an Accept-Encoding header admits, among those the build writes, best first. A coding
 * with q=0 is refused; `*` admits every coding the header does not name.
 */
export function acceptedEncodings(header: string): EncodingName[] {
  const quality = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    const q = parameters.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    quality.set(coding.trim(), q ? Number(q[1]) : 1);
  }
  const admits = (name: string) => (quality.get(name) ?? quality.get("*") ?? 0) > 0;
  return ENCODINGS.filter((encoding) => admits(encoding.name)).map((encoding) => encoding.name);
}
