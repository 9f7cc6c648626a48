// The bus's use of the sidecar: fresh nkeys and signed JWTs (goja has no ed25519; docs/decisions.md).
import { keyStock } from "../lib/key-stock";
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

/** Bus users' nkeys, made ahead of the write that needs one (lib/key-stock.ts). */
export const userNkeys = keyStock<Nkey>("bus.user", (count) => newNkeys(Array.from({ length: count }, (): NkeyType => "user")));

export function signJwt(issuerSeed: string, claims: Claims): string {
  return sidecarCall<{ jwt: string }>("/v1/jwt", { seed: issuerSeed, claims }).jwt;
}
