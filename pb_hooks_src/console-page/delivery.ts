/// <reference path="../../build/types/types.d.ts" />
// The caching and the encoding of the console's files on PocketBase's static route (assets.ts says which).
// A precompressed file is served by the stock route itself: the request's {path} is pointed at NAME.br or
// NAME.gz, and the headers set here make the browser read it as the script or stylesheet it encodes.
import { persistentFlagsOf } from "../lib/flags";
import { rootCommand } from "../lib/events";
import { ENCODINGS, IMMUTABLE, REVALIDATE, acceptedEncodings, assetOf } from "./assets";

/** PocketBase's name for the static route's wildcard (apis.StaticWildcardParam). */
const STATIC_PATH = "path";

/**
 * --publicDir as serve parsed it (examples/base registers the flag), read once per VM; "" when the binary
 * has no such flag: then no file counts as an asset, and the stock route answers as it would alone.
 */
let publicDir: string | undefined;

function exists(path: string): boolean {
  try {
    publicDir ??= persistentFlagsOf(rootCommand()).getString("publicDir");
  } catch {
    publicDir = "";
  }
  if (!publicDir) return false;
  try {
    return !$os.stat($filepath.join(publicDir, path)).isDir();
  } catch {
    return false; // missing: the route's index fallback (or a 404) answers, and must not be cached
  }
}

/** For a request the static route will answer: its Cache-Control and, for an asset, its encoding. */
export function setDelivery(e: core.RequestEvent, request: http.Request): void {
  const header = e.response.header();
  const asset = assetOf(request.pathValue(STATIC_PATH));
  if (!asset || !exists(asset.path)) {
    header.set("Cache-Control", REVALIDATE);
    return;
  }
  header.set("Cache-Control", IMMUTABLE);
  header.add("Vary", "Accept-Encoding");
  for (const name of acceptedEncodings(request.header.get("Accept-Encoding"))) {
    const encoding = ENCODINGS.find((candidate) => candidate.name === name);
    if (!encoding || !exists(asset.path + encoding.suffix)) continue;
    header.set("Content-Type", asset.contentType);
    header.set("Content-Encoding", encoding.name);
    request.setPathValue(STATIC_PATH, asset.path + encoding.suffix);
    return;
  }
}
