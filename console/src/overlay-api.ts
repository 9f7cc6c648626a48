// The overlay screen's requests: the CA row (every role reads it, 5.1), the rotation and audit routes
// (spec 4.2, owner/admin), and host writes. The read rules scope every list to the active organization.
import type { RecordModel } from "pocketbase";
import { pb } from "./pb";
import type { CertAudit } from "../../common/overlay/cert-audit";
import type { RotationStep } from "../../common/overlay/rotation";
import { CA_FIELDS } from "./overlay";

/** The organization's CA, or null: a list of at most one (a missing row is not a 404). */
export async function loadCa(): Promise<RecordModel | null> {
  const page = await pb.collection("overlay_ca").getList(1, 1, { fields: CA_FIELDS });
  return page.items[0] ?? null;
}

/** POST /api/org/overlay-ca/rotate; a refused transition rejects with the server's message. */
export async function rotateCa(step: RotationStep): Promise<void> {
  await pb.send("/api/org/overlay-ca/rotate", { method: "POST", body: { step } });
}

/** GET /api/org/overlay/cert-audit: ids of active hosts whose certificate no longer matches their network. */
export async function staleHostIds(): Promise<string[]> {
  const answer = await pb.send<CertAudit>("/api/org/overlay/cert-audit", { method: "GET" });
  return answer.stale;
}

/**
 * Renewal: a save without `cert` makes the server re-sign the host (new key pair, certificate from the
 * issuing CA; docs/overlay.md "Re-signing").
 */
export async function renewHost(id: string): Promise<void> {
  await pb.collection("overlay_hosts").update(id, { cert: "" }, { fields: "id" });
}

export async function setHostActive(id: string, active: boolean): Promise<void> {
  await pb.collection("overlay_hosts").update(id, { active }, { fields: "id" });
}

/** The host's config as served (blocklist filled in), read only when the user downloads it. */
export async function readHostConfig(id: string): Promise<string> {
  const row = await pb.collection("overlay_hosts").getOne(id, { fields: "config_yaml" });
  return row.config_yaml as string;
}
