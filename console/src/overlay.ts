// The overlay screen's pure parts: the CA rotation's state and steps as the server defines them
// (spec 3.2, 4.2; docs/overlay.md "CA rotation"), the host a refused step names, a host form's payload,
// validity in words and the config file's name.
import { transitionRefusal, type RotationState, type RotationStep } from "../../common/overlay/rotation";
import { safeFileName } from "./own-identity";

/** The list and view fields of the CA the screen shows: never `private_key` (hidden anyway) nor the certificates. */
export const CA_FIELDS = "id,name,fingerprint,not_after,rotation,next_fingerprint,next_not_after,previous_fingerprint";
export { HOST_FIELDS } from "../../common/overlay/list-fields";

/** What the CA's state means, in words. */
export function rotationStateText(state: RotationState): string {
  if (state === "prepared") return "Prepared: hosts trust both CAs; the current CA still issues every certificate.";
  if (state === "committed") return "Committed: the new CA issues certificates; hosts still trust the outgoing CA until finish.";
  return "No rotation under way: hosts trust one CA.";
}

/**
 * Which steps the server accepts from a state (docs/overlay.md's table), judged by the server's own rule
 * with no host holding an outgoing certificate; the others are not offered.
 */
export function stepAllowed(step: RotationStep, state: RotationState): boolean {
  return transitionRefusal(state, step) === undefined;
}

/** What a step will do from the current state, said before the owner confirms it. */
export function stepEffect(step: RotationStep, state: RotationState): string {
  if (step === "prepare") {
    return state === "prepared"
      ? "Replaces the incoming CA with a new one. Every host's config trusts the current CA and the new one; no certificate changes."
      : "Creates an incoming CA. Every host's config trusts both CAs; the current CA still issues and no certificate changes. Harmless to leave prepared.";
  }
  if (step === "commit") {
    return state === "committed"
      ? "Re-signs the active hosts whose certificate is not yet issued by the new CA (a sweep resumed). Redeploy their configs."
      : "Moves issuance to the incoming CA and re-signs every active host with a new key pair; configs still trust both CAs. Redeploy every host's config.";
  }
  return "Drops the outgoing CA: configs trust only the new CA, and a host still holding an old certificate loses its tunnels. Refused while an active host holds a certificate of the outgoing CA. This cannot be undone.";
}

/** The host a refused step names (`active host "<name>" (id <id>)`), or null. */
export function blockingHost(message: string): { name: string; id: string } | null {
  const match = /active host "(.*)" \(id ([A-Za-z0-9]+)\)/.exec(message);
  return match ? { name: match[1], id: match[2] } : null;
}

export interface HostForm {
  name: string;
  network: string;
  overlay_ip: string;
  /** Comma-separated group names. */
  groups: string;
  is_lighthouse: boolean;
  public_endpoint: string;
}

export const EMPTY_HOST: HostForm = { name: "", network: "", overlay_ip: "", groups: "", is_lighthouse: false, public_endpoint: "" };

/** What a new host's form sends: trimmed text, groups as a list without blanks or repeats, active. */
export function hostPayload(form: HostForm): Record<string, unknown> {
  const groups = [...new Set(form.groups.split(",").map((g) => g.trim()).filter((g) => g !== ""))];
  return {
    name: form.name.trim(),
    network: form.network,
    overlay_ip: form.overlay_ip.trim(),
    groups,
    active: true,
    is_lighthouse: form.is_lighthouse,
    public_endpoint: form.public_endpoint.trim(),
  };
}

const DAY = 86_400_000;

/** "valid until 2036-11-24 (3652 days left)", "expired on …", or "no expiry recorded" (PocketBase dates are "YYYY-MM-DD hh:mm:ss.sssZ"). */
export function validityText(notAfter: string, now: Date): string {
  const until = new Date(notAfter.replace(" ", "T"));
  if (!notAfter || Number.isNaN(until.getTime())) return "no expiry recorded";
  const day = until.toISOString().slice(0, 10);
  const left = Math.floor((until.getTime() - now.getTime()) / DAY);
  return left < 0 ? `expired on ${day}` : `valid until ${day} (${left} ${left === 1 ? "day" : "days"} left)`;
}

/** The downloaded config's file name: the host's name made safe for a file name. */
export function configFileName(name: string): string {
  return safeFileName(name, "overlay-host", "yml");
}
