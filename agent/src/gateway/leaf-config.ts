// GET /api/me/leaf-config for the gateway (spec 4.2): the ten fields, asked with If-None-Match so an
// unchanged configuration comes back as a 304 with no key material.
import { LEAF_CONFIG_FIELDS, type LeafConfig } from "../../../common/bus/leaf-config";
import { conditionalGet, normalizeUrl, PlatformError } from "../platform/client";

export type LeafConfigAnswer = { changed: false } | { changed: true; config: LeafConfig; etag: string | undefined };

const PATH = "/api/me/leaf-config";

/** Reads the leaf config; `etag` (the last one seen) turns an unchanged answer into `{changed: false}`. */
export async function fetchLeafConfig(platform: string, token: string, etag: string | undefined, timeoutMs = 10_000): Promise<LeafConfigAnswer> {
  const answer = await conditionalGet(normalizeUrl(platform), PATH, token, etag, timeoutMs);
  return answer.changed ? { changed: true, config: parseLeafConfig(answer.json), etag: answer.etag } : answer;
}

/** The ten fields as strings, or a PlatformError naming the first one missing (a platform older than the agent). */
export function parseLeafConfig(value: unknown): LeafConfig {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const missing = LEAF_CONFIG_FIELDS.find((field) => typeof record[field] !== "string" || record[field] === "");
  if (missing !== undefined) throw new PlatformError(200, `GET ${PATH}: the answer has no ${missing}`);
  return Object.fromEntries(LEAF_CONFIG_FIELDS.map((field) => [field, record[field]])) as unknown as LeafConfig;
}
