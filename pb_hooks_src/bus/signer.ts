// The bus's use of the sidecar: fresh nkeys and signed JWTs (goja has no ed25519;
// docs/decisions/059-crypto-in-persistent-node-sidecar.md).
import { sidecarCall, sidecarCallWithText } from "../lib/sidecar";
import type { Claims } from "./claims";

export type NkeyType = "operator" | "account" | "user";

export interface Nkey {
  seed: string;
  public: string;
}

export function newNkeys(types: NkeyType[]): Nkey[] {
  return sidecarCall<Nkey[]>("/v1/nkeys", { types });
}

export function signJwt(issuerSeed: string, claims: Claims): string {
  return sidecarCall<{ jwt: string }>("/v1/jwt", { seed: issuerSeed, claims }).jwt;
}

/** Stands in for a JSON value in the claims until the request's text is made: no claim holds this text. */
const SPLICE_MARK = "__platform_spliced_json__";

/**
 * signJwt with `nats.<field>` given as the JSON text it is stored as, spliced into the request's text:
 * an account's 5,000-entry revocation list is neither parsed nor serialized again in goja to be signed.
 */
export function signJwtWithStoredJson(issuerSeed: string, claims: Claims, field: string, storedJson: string): string {
  const marked: Claims = { ...claims, nats: { ...claims.nats, [field]: SPLICE_MARK } };
  const text = JSON.stringify({ seed: issuerSeed, claims: marked }).replace(`"${SPLICE_MARK}"`, () => storedJson);
  return sidecarCallWithText<{ jwt: string }>("/v1/jwt", text).jwt;
}
