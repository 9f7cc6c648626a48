// Pure rules of the Things screens: which identity modes the create wizard offers, the agent's
// enrollment command (agent/README.md "Enrollment"), new Thing passwords, and the suspended-organization
// refusal in words.
import type { IdentityMode } from "../../common/inventory/create-thing";
import { can, type Identity } from "./capabilities";

/** The wizard's order: no identity first. */
export const IDENTITY_MODES: readonly IdentityMode[] = ["none", "auto", "link"];

export const MODE_LABELS: Readonly<Record<IdentityMode, string>> = {
  none: "None",
  auto: "Create a new one",
  link: "Link an existing one",
};

/** Members create inventory only: a mode other than `none` is owner/admin business (spec 4.2 rule 1). */
export function identityModes(identity: Identity): IdentityMode[] {
  return can(identity, "things.identity") ? [...IDENTITY_MODES] : ["none"];
}

/**
 * The command that enrolls the agent as this Thing. The password is piped on stdin, never an argument
 * (the agent refuses `--password`); the single quotes keep the shell from reading the placeholder.
 */
export function enrollCommand(origin: string, email: string): string {
  return `printf '%s\\n' "$PASSWORD" | agent enroll --platform ${origin} --email ${email}`;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** As many characters as the server's generated passwords (24 alphanumerics, ~143 bits). */
export const PASSWORD_LENGTH = 24;

/** A new Thing password from the browser's CSPRNG; rejection sampling keeps every character equally likely. */
export function newThingPassword(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = "";
  while (out.length < PASSWORD_LENGTH) {
    for (const byte of random(new Uint8Array(PASSWORD_LENGTH * 2))) {
      if (byte < limit && out.length < PASSWORD_LENGTH) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}

export const SUSPENDED_BUS_AUTO =
  "This organization is suspended, so it has no active bus account and no new bus identity can be created. " +
  "Link an existing bus user or choose None; a Platform Operator can reactivate the organization.";

/** The server's refusal of `bus.mode = auto` in a suspended organization (spec 4.2 rule 2), explained. */
export function explainCreateError(message: string): string {
  return /no active bus account/i.test(message) ? `${SUSPENDED_BUS_AUTO} (${message})` : message;
}
