// NATS JWT v2 claims the platform signs (pure). The sidecar adds iss, iat and jti and signs them.
// Field names follow github.com/nats-io/jwt/v2; an account whose limits are left empty has zero limits
// and nats-server refuses every connection, so every limit is spelled out (-1 is unlimited).

import { MAX_ACCOUNT_JWT_BYTES } from "../../common/bus/account-claim";
import { NOTICE_EXPORT_SUBJECT, NOTICE_IMPORT_NAME } from "../../common/bus/notices";

export const NO_LIMIT = -1;

export interface AccountLimits {
  max_connections: number;
  max_subscriptions: number;
  max_payload: number;
  max_persist_disk_storage: number;
  max_persist_memory_storage: number;
}

const LIMIT_KEYS: readonly (keyof AccountLimits)[] = [
  "max_connections",
  "max_subscriptions",
  "max_payload",
  "max_persist_disk_storage",
  "max_persist_memory_storage",
];

/**
 * Why recorded limits cannot be signed, or undefined: exactly the five limits, each a whole number of -1
 * (unlimited) or more. A limit left out is signed as absent, which nats-server reads as zero, refusing
 * every connection; a misspelt key would be dropped without a word.
 */
export function limitsProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return `must be an object with ${LIMIT_KEYS.join(", ")}`;
  const limits = value as Record<string, unknown>;
  const unknown = Object.keys(limits).filter((key) => !(LIMIT_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) return `has unknown keys: ${unknown.join(", ")}`;
  for (const key of LIMIT_KEYS) {
    const limit = limits[key];
    if (!Number.isSafeInteger(limit) || (limit as number) < -1) return `${key} must be a whole number, -1 (unlimited) or more, got ${JSON.stringify(limit) ?? "nothing"}`;
  }
  return undefined;
}

export interface Claims {
  sub: string;
  name: string;
  iat?: number;
  /** Expiry second; nats-server refuses the JWT from then on and closes connections made with it. */
  exp?: number;
  nats: Record<string, unknown>;
}

export interface Permissions {
  allow?: string[];
  deny?: string[];
}

export interface ExportClaim {
  name: string;
  subject: string;
  type: "stream" | "service";
  /** Importers need an activation token the exporting account signed for them. */
  token_req?: boolean;
}

/** The $SYS account's export of every organization's change notices (common/bus/notices.ts). */
export const NOTICE_EXPORT: ExportClaim = { name: NOTICE_IMPORT_NAME, subject: NOTICE_EXPORT_SUBJECT, type: "stream", token_req: true };

export interface ImportClaim {
  name: string;
  subject: string;
  account: string;
  local_subject?: string;
  /** The exporter's activation token for this account (an export with token_req). */
  token?: string;
  type: "stream" | "service";
}

/** The operator: accounts are signed by its signing key only (strict_signing_key_usage). */
export function operatorClaims(name: string, operatorPub: string, signingKeyPub: string, systemAccountPub: string): Claims {
  return {
    sub: operatorPub,
    name,
    nats: {
      type: "operator",
      version: 2,
      signing_keys: [signingKeyPub],
      system_account: systemAccountPub,
      strict_signing_key_usage: true,
    },
  };
}

/**
 * The $SYS account: unlimited connections and subscriptions, no persistence (nats-server forbids it
 * there). Under strict signing-key usage its users must be signed by a signing key of it, too.
 */
export function systemAccountClaims(systemAccountPub: string, signingKeyPub: string, exports: readonly ExportClaim[] = []): Claims {
  const claims: Claims = {
    sub: systemAccountPub,
    name: "SYS",
    nats: {
      type: "account",
      version: 2,
      signing_keys: [signingKeyPub],
      limits: {
        subs: NO_LIMIT,
        data: NO_LIMIT,
        payload: NO_LIMIT,
        imports: NO_LIMIT,
        exports: NO_LIMIT,
        wildcards: true,
        conn: NO_LIMIT,
        leaf: NO_LIMIT,
      },
    },
  };
  if (exports.length > 0) claims.nats.exports = exports.map((e) => ({ ...e }));
  return claims;
}

export interface AccountState {
  accountPub: string;
  name: string;
  /** A suspended account's claim admits no connection, leaf, subscription or message. */
  suspended: boolean;
  limits: AccountLimits;
  signingKeys: string[];
  /** User public key → revocation cutoff in unix seconds: credentials issued at or before it are refused. */
  revocations: Record<string, number>;
  exports: ExportClaim[];
  imports: ImportClaim[];
}

/**
 * A tenant account, stamped with the limits recorded at provisioning. Suspended, its traffic limits are
 * zero (nats-server then drops every connection and admits none) while its persistence limits stay, so
 * no stored stream is touched.
 */
export function accountClaims(state: AccountState): Claims {
  const { limits } = state;
  const traffic = (value: number) => (state.suspended ? 0 : value);
  // Spec 8.2: 0 on either persistence limit disables persistence for the account. nats-server enables
  // JetStream for an account while either storage limit is non-zero, so both are signed as 0.
  const persists = limits.max_persist_memory_storage !== 0 && limits.max_persist_disk_storage !== 0;
  const storage = (value: number) => (persists ? value : 0);
  const nats: Record<string, unknown> = {
    type: "account",
    version: 2,
    limits: {
      subs: traffic(limits.max_subscriptions),
      data: traffic(NO_LIMIT),
      payload: traffic(limits.max_payload),
      imports: NO_LIMIT,
      exports: NO_LIMIT,
      wildcards: true,
      conn: traffic(limits.max_connections),
      leaf: traffic(NO_LIMIT),
      mem_storage: storage(limits.max_persist_memory_storage),
      disk_storage: storage(limits.max_persist_disk_storage),
      streams: NO_LIMIT,
      consumer: NO_LIMIT,
    },
    signing_keys: [...state.signingKeys],
  };
  if (Object.keys(state.revocations).length > 0) nats.revocations = { ...state.revocations };
  if (state.exports.length > 0) nats.exports = state.exports.map((e) => ({ ...e }));
  if (state.imports.length > 0) nats.imports = state.imports.map((i) => ({ ...i }));
  return { sub: state.accountPub, name: state.name, nats };
}

export interface UserState {
  userPub: string;
  name: string;
  /** The issuing account; a signing key of it signs the credential (strict signing-key usage). */
  accountPub: string;
  publish: Permissions;
  subscribe: Permissions;
  /** Issued-at second; must lie strictly after any revocation cutoff of this key. */
  iat: number;
  /** Expiry second; absent only for the platform's own system user. */
  exp?: number;
  /** nats `tags`: the notice slot (common/bus/notices.ts). */
  tags?: string[];
}

/** A user of a tenant account, signed by one of the account's signing keys (issuer_account set). */
export function userClaims(state: UserState): Claims {
  const nats: Record<string, unknown> = {
    type: "user",
    version: 2,
    subs: NO_LIMIT,
    data: NO_LIMIT,
    payload: NO_LIMIT,
    issuer_account: state.accountPub,
  };
  if (hasRules(state.publish)) nats.pub = permission(state.publish);
  if (hasRules(state.subscribe)) nats.sub = permission(state.subscribe);
  if (state.tags?.length) nats.tags = [...state.tags];
  const claims: Claims = { sub: state.userPub, name: state.name, iat: state.iat, nats };
  if (state.exp !== undefined) claims.exp = state.exp;
  return claims;
}

function hasRules(p: Permissions): boolean {
  return (p.allow?.length ?? 0) > 0 || (p.deny?.length ?? 0) > 0;
}

function permission(p: Permissions): Permissions {
  const out: Permissions = {};
  if (p.allow?.length) out.allow = [...p.allow];
  if (p.deny?.length) out.deny = [...p.deny];
  return out;
}

/** The creds file a NATS client reads: the user JWT and its seed, in nsc's layout. */
export function credsFile(userJwt: string, userSeed: string): string {
  return [
    "-----BEGIN NATS USER JWT-----",
    userJwt,
    "------END NATS USER JWT------",
    "",
    "************************* IMPORTANT *************************",
    "NKEY Seed printed below can be used to sign and prove identity.",
    "NKEYs are sensitive and should be treated as secrets.",
    "",
    "-----BEGIN USER NKEY SEED-----",
    userSeed,
    "------END USER NKEY SEED------",
    "",
    "*************************************************************",
    "",
  ].join("\n");
}

/**
 * Why a permissions value cannot be signed as written (undefined when it can). A value of another shape
 * would be read as no list at all, and a credential without lists may publish and subscribe anywhere: so
 * `{"deny": ">"}` (a string, not a list) granted everything.
 */
export function permissionsProblem(value: unknown): string | undefined {
  const PROBLEM = "must be a list of subjects, or an object with allow and deny lists of subjects";
  const isSubjectList = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string" && /^\S+$/.test(s));
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return isSubjectList(value) ? undefined : PROBLEM;
  if (typeof value !== "object") return PROBLEM;
  const entries = Object.entries(value as Record<string, unknown>);
  const valid = entries.every(([key, list]) => (key === "allow" || key === "deny") && isSubjectList(list));
  return valid ? undefined : PROBLEM;
}

/**
 * The longest user JWT a client can present. nats-server reads at most 4,096 bytes of a client's or a leaf's
 * CONNECT line (its default `max_control_line`, which the sites' leaf servers keep too), and the line
 * carries the JWT with the nonce's signature and the client's options (~300–500 bytes).
 */
export const MAX_USER_JWT_BYTES = 3584;

/** Why a user credential could never connect, or undefined when it can. */
export function credentialSizeProblem(userJwt: string): string | undefined {
  if (userJwt.length <= MAX_USER_JWT_BYTES) return undefined;
  return (
    `the permissions make a credential of ${userJwt.length} bytes, more than the ${MAX_USER_JWT_BYTES} a bus client can present ` +
    "(nats-server reads at most 4096 bytes of a CONNECT line): list fewer subjects, or cover them with wildcards"
  );
}

// The ceiling lives in common/ because the console shows a claim's size against it (fleet health).
export { MAX_ACCOUNT_JWT_BYTES };

/** Why an account claim could never reach the bus, or undefined when it can. */
export function accountClaimSizeProblem(claimLength: number): string | undefined {
  if (claimLength <= MAX_ACCOUNT_JWT_BYTES) return undefined;
  return (
    `the organization's bus account claim would be ${claimLength} bytes, more than the ${MAX_ACCOUNT_JWT_BYTES} the bus ` +
    "takes (its maximum payload), so the bus could no longer be told of any change to the account; nothing was written. " +
    "Its revocation list is what grows: see docs/bus.md \"Revocations\""
  );
}

/**
 * Permissions as recorded on roles and bus users: `{allow, deny}` lists of subjects, or a plain list
 * of subjects meaning allow. Anything else grants nothing extra.
 */
export function permissionsFrom(value: unknown): Permissions {
  const subjects = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string" && s !== "") : []);
  if (Array.isArray(value)) return { allow: subjects(value) };
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return { allow: subjects(record.allow), deny: subjects(record.deny) };
  }
  return {};
}
