// GET /branding/{path}: the three branding files, each from branding.dir when present there, else the
// embedded default. Only these names are served, so no path can leave the directory.
import { currentConfig } from "../config/runtime";
import { BRANDING_FILES } from "./defaults";
import { requestOf } from "../lib/events";

export function brandingRoute(e: core.RequestEvent): void {
  const name = requestOf(e).pathValue("path");
  const file = Object.prototype.hasOwnProperty.call(BRANDING_FILES, name) ? BRANDING_FILES[name] : undefined;
  if (!file) {
    e.json(404, { status: 404, message: "no such branding file", data: {} });
    return;
  }
  const override = readOverride(currentConfig().branding.dir, name);
  e.response.header().set("Cache-Control", "no-cache");
  e.response.header().set("X-Content-Type-Options", "nosniff");
  e.blob(200, file.contentType, override ?? file.body);
}

function readOverride(dir: string, name: string): string | Array<number> | undefined {
  if (!dir) return undefined;
  try {
    return $os.readFile($filepath.join(dir, name));
  } catch {
    return undefined; // missing or unreadable: the embedded default stands in
  }
}
