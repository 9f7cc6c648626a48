// The bus's use of the sidecar: fresh nkeys and signed JWTs (goja has no ed25519;
// docs/decisions/059-crypto-in-persistent-node-sidecar.md).
import { sidecarCall } from "../lib/sidecar";
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
