// The `include` query parameter of GET /api/me/identity: which key material the caller asks for. The
// answer's shape is the agent's contract too: common/inventory/identity.ts.
import { KEY_MATERIAL, type KeyMaterial } from "../../common/inventory/identity";
import { badRequest } from "../lib/errors";

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
