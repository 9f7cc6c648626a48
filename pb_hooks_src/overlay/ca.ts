// The organization's overlay CA (spec 2.1 overlay_ca, 8.3 overlay.*): created with the organization in its
// write transaction, like the bus account (bus/accounts.ts). A failure fails the organization's save, and
// a later save retries (creation is skipped while a CA exists). docs/overlay.md.
import { sha256 } from "@noble/hashes/sha2.js";
import type { PlatformConfig } from "../config/types";
import { findByField } from "../lib/collections";
import { sidecarCall } from "../lib/sidecar";
import type { CollectionNames } from "../schema/names";
import type { Ed25519KeypairResponse, Ed25519SignResponse } from "../../common/sidecar/protocol";
import { caDetails } from "./ca-details";
import { base64Decode, base64Encode, bytesToHex, certificateBytes, ed25519PrivateKeyPem, encodeDetails, fingerprint, pemEncode, BANNERS } from "./cert";
import { sealSecret } from "../lib/secrets";

const sha256hex = (data: Uint8Array): string => bytesToHex(sha256(data));

export function caOf(app: CoreApp, n: CollectionNames, organizationId: string): core.Record | undefined {
  return findByField(app, n.overlay_ca, "organization", organizationId);
}

export interface MintedCa {
  name: string;
  cert: string;
  /** Sealed with overlay.encryption_key when set. */
  private_key: string;
  fingerprint: string;
  not_after: string;
}

/** A new CA for the organization (caDetails rules), signed by the sidecar; nothing is saved. */
export function mintCa(config: PlatformConfig, organizationCode: string, now = new Date()): MintedCa {
  const key = sidecarCall<Ed25519KeypairResponse>("/v1/ed25519/keypair", {});
  const publicKey = base64Decode(key.public);
  const details = caDetails(organizationCode, now, config.overlay.default_ca_validity_years, publicKey);
  const { signature } = sidecarCall<Ed25519SignResponse>("/v1/ed25519/sign", { seed: key.seed, message: base64Encode(encodeDetails(details)) });
  const bytes = certificateBytes(details, base64Decode(signature));
  return {
    name: details.name,
    cert: pemEncode(BANNERS.certificate, bytes),
    private_key: sealSecret("overlay", ed25519PrivateKeyPem(base64Decode(key.seed), publicKey)),
    fingerprint: fingerprint(bytes, sha256hex),
    not_after: new Date(details.notAfter * 1000).toISOString().replace("T", " "),
  };
}

/** The organization's CA, created in the caller's transaction unless one exists. */
export function provisionCa(tx: CoreApp, n: CollectionNames, config: PlatformConfig, organization: core.Record, now = new Date()): core.Record {
  const existing = caOf(tx, n, organization.id);
  if (existing) return existing;
  const minted = mintCa(config, organization.getString("code"), now);
  const ca = new Record(tx.findCollectionByNameOrId(n.overlay_ca));
  ca.load({ organization: organization.id, ...minted });
  tx.save(ca);
  return ca;
}

/**
 * The PEM bundle a host of the organization trusts (pki.ca): the issuing CA, plus the incoming one while a
 * rotation is prepared, or the outgoing one while it is committed (docs/overlay.md "CA rotation").
 */
export function trustedCaPem(ca: core.Record): string {
  return [ca.getString("cert"), ca.getString("next_cert"), ca.getString("previous_cert")]
    .filter((pem) => pem.trim() !== "")
    .map((pem) => (pem.endsWith("\n") ? pem : `${pem}\n`))
    .join("");
}
