// Validation of the POST /api/org/things body (pure, unit-tested).
import { badRequest, forbidden } from "../lib/errors";
import { isObject, oneOfStrings, optionalObject, optionalString, requiredString, type JsonObject } from "../lib/body";
import { EDITORS, MANAGERS, type Role } from "../lib/roles";
import { IDENTITY_MODES, type CreateThingBody, type IdentityMode } from "../../common/inventory/create-thing";
import { THING_CODE_PATTERN } from "./collections";

/** The schema's limits on things.name and things.description (inventory/collections.ts), in characters. */
export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 2000;

/** A body as the route reads it: every field present, metadata an object or absent. */
export interface ThingRequest extends Omit<CreateThingBody, "metadata"> {
  metadata: JsonObject | undefined;
}

export function parseThingRequest(body: JsonObject): ThingRequest {
  // The schema would refuse these at save time, but only with PocketBase's generic message.
  const name = maxLength(requiredString(body, "name"), NAME_MAX, "name");
  const code = optionalString(body, "code");
  if (code !== "" && !new RegExp(THING_CODE_PATTERN).test(code)) {
    throw badRequest("code must be 1 to 64 letters, digits, hyphens or underscores, starting with a letter or digit");
  }
  const metadata = body.metadata;
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) throw badRequest("metadata must be an object");
  const bus = optionalObject(body, "bus") ?? {};
  const overlay = optionalObject(body, "overlay") ?? {};
  return {
    name,
    code,
    description: maxLength(optionalString(body, "description"), DESCRIPTION_MAX, "description"),
    type: optionalString(body, "type"),
    location: optionalString(body, "location"),
    metadata: isObject(metadata) ? metadata : undefined,
    bus: {
      mode: identityMode(bus, "bus"),
      role_id: optionalString(bus, "role_id", "bus.role_id"),
      user_id: optionalString(bus, "user_id", "bus.user_id"),
    },
    overlay: {
      mode: identityMode(overlay, "overlay"),
      network_id: optionalString(overlay, "network_id", "overlay.network_id"),
      overlay_ip: optionalString(overlay, "overlay_ip", "overlay.overlay_ip"),
      host_id: optionalString(overlay, "host_id", "overlay.host_id"),
    },
  };
}

/** Counted in code points, as PocketBase counts a text field's max. */
function maxLength(value: string, max: number, path: string): string {
  if (Array.from(value).length > max) throw badRequest(`${path} must be at most ${max} characters`);
  return value;
}

function identityMode(block: JsonObject, path: string): IdentityMode {
  const mode = optionalString(block, "mode", `${path}.mode`);
  return mode === "" ? "none" : oneOfStrings(mode, IDENTITY_MODES, `${path}.mode`);
}

/** Members create inventory only; identities are owner/admin business (spec 4.2 rule 1). */
export function authorizeThingRequest(role: Role, request: ThingRequest): void {
  if (!EDITORS.includes(role)) throw forbidden("creating Things needs the member, admin or owner role");
  const wantsIdentity = request.bus.mode !== "none" || request.overlay.mode !== "none";
  if (wantsIdentity && !MANAGERS.includes(role)) {
    throw forbidden("only an owner or admin may create bus or overlay identities");
  }
}
