// The shape of GET /api/me/identity, which the edge agent reads (agent/src/platform/client.ts), and the key
// material its `include` query parameter asks for. A poll asks for none and compares revisions; an agent
// asks for a field only when its revision moved.
export const KEY_MATERIAL = ["creds_file", "config_yaml"] as const;
export type KeyMaterial = (typeof KEY_MATERIAL)[number];

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
