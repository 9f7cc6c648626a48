// The shape of GET /api/me/identity (what the edge agent reads, agent/src/platform/client.ts) and its
// `include` query parameter: which key material the caller asks for. A poll asks for none and compares
// revisions; an agent asks for a field only when its revision moved.
import { badRequest } from "../lib/errors";

export const KEY_MATERIAL = ["creds_file", "config_yaml"] as const;
export type KeyMaterial = (typeof KEY_MATERIAL)[number];

/** "" → none; "creds_file,config_yaml" → both; anything else → 400 naming the unknown value. */
export function parseInclude(text: string): Set<KeyMaterial> {
  const wanted = new Set<KeyMaterial>();
  for (const part of text.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    if (!(KEY_MATERIAL as readonly string[]).includes(part)) {
      throw badRequest(`include: unknown value ${JSON.stringify(part.slice(0, 40))} (expected ${KEY_MATERIAL.join(", ")})`);
    }
    wanted.add(part as KeyMaterial);
  }
  return wanted;
}

export interface LinkedIdentity {
  id: string;
  active: boolean;
  /** sha256 (hex) of the key material as served: it moves exactly when the material the agent runs on does. */
  revision: string;
}

export interface OwnIdentity {
  thing: { id: string; code: string; email: string; organization: string; active: boolean };
  bus_user: (LinkedIdentity & { creds_file?: string }) | null;
  overlay_host: (LinkedIdentity & { config_yaml?: string }) | null;
}
