// POST /api/org/things (spec 4.2): the body the console's wizard sends and the answer it shows once. The
// route parses a body into the same shape, blanks filled (pb_hooks_src/inventory/request.ts).
export const IDENTITY_MODES = ["auto", "link", "none"] as const;
/** auto: mint a new identity; link: attach an existing one; none: no identity of that kind. */
export type IdentityMode = (typeof IDENTITY_MODES)[number];

export interface BusIdentityChoice {
  mode: IdentityMode;
  /** The role of an `auto` bus user; "" for the organization's default role. */
  role_id: string;
  /** The bus user a `link` attaches. */
  user_id: string;
}

export interface OverlayIdentityChoice {
  mode: IdentityMode;
  /** The network of an `auto` host, and its address ("" for the next free one). */
  network_id: string;
  overlay_ip: string;
  /** The overlay host a `link` attaches. */
  host_id: string;
}

export interface CreateThingBody {
  name: string;
  /** "" draws a code. */
  code: string;
  description: string;
  type: string;
  location: string;
  metadata?: Record<string, unknown>;
  bus: BusIdentityChoice;
  overlay: OverlayIdentityChoice;
}

/** The answer: the Thing's password appears here once and is never served again. */
export interface CreatedThing {
  id: string;
  code: string;
  email: string;
  password: string;
}
