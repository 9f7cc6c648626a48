// The Bus screen's requests and the words it shows: the organization's bus account and its signing keys
// (POST /api/org/bus-account/keys, spec 4.2), bus users and their state changes (spec 3.2), roles'
// permission lists. Reads ask only for fields without secrets: seeds are hidden fields, and a creds file is
// read one row at a time, when its download is asked for (own-identity.ts).
import type { RecordModel } from "pocketbase";
import { BUS_SORT } from "./lists";
import { pb } from "./pb";

/** What the screen shows of the account: never its seed, signing seeds or JWT. */
export const ACCOUNT_FIELDS = "id,name,active,public_key,limits,signing_keys,bus_confirmed,bus_status,updated";
/** Bus users as listed: name, role, state and public key (the creds file only on a download). */
export const USER_FIELDS = "id,name,role,active,public_key,updated";

/** The active organization's account, or null when it has none (the read rule scopes the list to it). */
export async function loadAccount(): Promise<RecordModel | null> {
  const page = await pb.collection("bus_accounts").getList(1, 1, { fields: ACCOUNT_FIELDS });
  return page.items[0] ?? null;
}

export type KeyAction = "add_signing" | "remove_signing" | "rotate";

export async function manageKeys(action: KeyAction, publicKey?: string): Promise<void> {
  await pb.send("/api/org/bus-account/keys", { method: "POST", body: publicKey ? { action, public_key: publicKey } : { action } });
}

/** Whether the bus confirmed the account's recorded state, in words (bus_confirmed/bus_status). */
export function busConfirmation(account: Record<string, unknown>): string {
  if (account.bus_confirmed === true) return account.active === true ? "Confirmed by the bus" : "Withdrawn, confirmed by the bus";
  const status = typeof account.bus_status === "string" ? account.bus_status : "";
  return status ? `Not confirmed by the bus: ${status}` : "Not confirmed by the bus";
}

const LIMIT_LABELS: Readonly<Record<string, { label: string; bytes?: boolean }>> = {
  max_connections: { label: "Connections" },
  max_leaf_connections: { label: "Leaf connections" },
  max_subscriptions: { label: "Subscriptions" },
  max_payload: { label: "Message payload", bytes: true },
  max_data: { label: "Data", bytes: true },
  max_persist_memory_storage: { label: "Persistent memory storage", bytes: true },
  max_persist_disk_storage: { label: "Persistent disk storage", bytes: true },
};

/** A size in the largest binary unit that keeps it at least 1 (1048576 → "1 MiB"). */
export function bytesInWords(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** Where a limit's row stands: the known ones in LIMIT_LABELS's order, any other after them by name. */
function limitOrder([a]: [string, unknown], [b]: [string, unknown]): number {
  const known = Object.keys(LIMIT_LABELS);
  const rank = (name: string) => (known.includes(name) ? known.indexOf(name) : known.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * The account's limits as label and value, in the same order on every load (the stored JSON's key order
 * is not kept from one read to the next); -1 (NATS's "no limit") reads as unlimited.
 */
export function limitRows(limits: unknown): Array<{ label: string; value: string }> {
  if (typeof limits !== "object" || limits === null) return [];
  return Object.entries(limits as Record<string, unknown>).sort(limitOrder).flatMap(([name, raw]) => {
    if (typeof raw !== "number") return [];
    const known = LIMIT_LABELS[name];
    const value = raw < 0 ? "Unlimited" : known?.bytes ? bytesInWords(raw) : raw.toLocaleString("en");
    return [{ label: known?.label ?? name, value }];
  });
}

/** Why a key may not be removed, or "" when it may: the account always keeps one (spec 3.2). */
export function removalRefusal(keys: readonly string[]): string {
  return keys.length <= 1
    ? "The last signing key cannot be removed: the account's credentials are signed with it. Add another key first, or rotate to replace it."
    : "";
}

/** What removing a key does: removing the first one (the one credentials are signed with) re-signs every credential. */
export function removalConsequence(keys: readonly string[], key: string): string {
  return keys[0] === key
    ? "Credentials are signed with this key: every active bus user is re-signed with the next key, and every creds file issued before stops validating; devices must fetch their credentials again."
    : "Credentials are not signed with this key: existing creds files stay valid.";
}

export const ROTATE_WARNING =
  "Rotation is for a suspected compromise: every signing key is removed and one new key is made. Every credential in the account stops validating at once — every device, edge agent and browser on this bus is disconnected until it fetches its re-signed credentials (the console's and each Thing's own sync do).";

/** A subject list as typed (commas, blanks or lines between subjects), without empties or repeats. */
export function subjectsOf(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((s) => s !== ""))];
}

const subjectsIn = (list: unknown): string[] => (Array.isArray(list) ? list.filter((s): s is string => typeof s === "string" && s !== "") : []);
/** The deny list of a recorded permission set (a plain list has none). */
const deniedSubjects = (value: unknown): string[] =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? subjectsIn((value as { deny?: unknown }).deny) : [];

/** The allow list of a recorded permission set (`{allow, deny}` or a plain list), as the form shows it. */
export function allowedSubjects(value: unknown): string[] {
  return subjectsIn(Array.isArray(value) ? value : typeof value === "object" && value !== null ? (value as { allow?: unknown }).allow : undefined);
}

/**
 * A role's permission set in words for a list: NATS applies no restriction when the allow list is empty,
 * so that reads "any subject" (not "—", which reads as nothing allowed); a deny list follows with "except".
 */
export function permissionWords(value: unknown): string {
  const allowed = allowedSubjects(value);
  const denied = deniedSubjects(value);
  const base = allowed.length > 0 ? allowed.join(", ") : "any subject";
  return denied.length > 0 ? `${base} except ${denied.join(", ")}` : base;
}

/** A permission set written back from the form: the allow list replaced, any deny list kept. */
export function withAllowed(previous: unknown, allow: string[]): { allow: string[]; deny?: string[] } {
  const deny = deniedSubjects(previous);
  return deny.length > 0 ? { allow, deny } : { allow };
}

/** A page of one of the Bus screen's lists, by name. */
export function busList(collection: string, page: number, perPage: number, fields: string) {
  return pb.collection(collection).getList(page, perPage, { sort: BUS_SORT, fields });
}
