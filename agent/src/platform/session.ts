// session.json: what enrollment leaves for the agent to run on (the platform, the Thing, its token and
// when the token expires). Never a password. Written atomically with mode 0600.
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "../lib/files";

export interface Session {
  platform: string;
  thing: { id: string; email: string; code: string; organization: string };
  token: string;
  /** Unix milliseconds at which the token stops being accepted. */
  token_expires: number;
}

export class SessionError extends Error {}

/** The session, or undefined when the file does not exist; a damaged file is a SessionError. */
export function readSession(path: string): Session | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SessionError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SessionError(`${path} is not JSON: re-run agent enroll`);
  }
  if (!isSession(value)) throw new SessionError(`${path} is not a session file: re-run agent enroll`);
  return value;
}

export function writeSession(path: string, session: Session): void {
  const { platform, thing, token, token_expires } = session;
  writeFileAtomic(path, `${JSON.stringify({ platform, thing, token, token_expires }, null, 2)}\n`);
}

/** The `exp` claim of a PocketBase token in unix milliseconds (the token is not verified: the platform does that). */
export function tokenExpiry(token: string): number {
  const payload = token.split(".")[1];
  if (!payload) throw new SessionError("the platform answered a token that is not a JWT");
  let exp: unknown;
  try {
    exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
  } catch {
    throw new SessionError("the platform answered a token whose claims are not JSON");
  }
  if (typeof exp !== "number" || !Number.isFinite(exp)) throw new SessionError("the platform answered a token without an expiry");
  return exp * 1000;
}

function isSession(value: unknown): value is Session {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const thing = v.thing as Record<string, unknown> | undefined;
  return (
    typeof v.platform === "string" &&
    typeof v.token === "string" &&
    typeof v.token_expires === "number" &&
    typeof thing === "object" &&
    thing !== null &&
    ["id", "email", "code", "organization"].every((k) => typeof thing[k] === "string")
  );
}
