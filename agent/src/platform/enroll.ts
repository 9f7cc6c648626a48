// `agent enroll --platform URL --email <thing e-mail> [--config path] [--state-dir dir]`: signs in as the
// Thing with its one-time password (stdin, or a prompt on a terminal; never argv or the environment),
// then writes the creds file, the overlay config and last the session, each 0600 and atomically. Nothing
// is written before the sign-in succeeds; a re-run rewrites the same files (idempotent).
import type { Readable, Writable } from "node:stream";
import { statePaths } from "../state-paths";
import { createPlatformClient, PlatformError, type PlatformClient } from "./client";
import { keepMaterial, overlayConfigPath } from "./material";
import { tokenExpiry, writeSession } from "./session";
import { readPassword } from "./password";

export interface EnrollIo {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: Writable;
  stderr: Writable;
  /** Tests and the lead may pass a client; by default one for --platform. */
  client?: (url: string) => PlatformClient;
}

export interface EnrollArgs {
  platform: string;
  email: string;
  stateDir: string;
}

/** Runs the command; resolves to the process exit code (0 enrolled, 1 refused or failed). */
export async function enrollCommand(args: EnrollArgs, io: EnrollIo): Promise<number> {
  const say = (stream: Writable, line: string) => stream.write(`${line}\n`);
  try {
    const client = (io.client ?? createPlatformClient)(args.platform);
    const password = await readPassword(io, `Password of ${args.email}: `);
    if (!password) throw new Error("no password on stdin (pipe the Thing's one-time password, or run on a terminal)");
    const summary = await enroll(client, args.email, password, args.stateDir);
    say(io.stdout, summary);
    return 0;
  } catch (err) {
    say(io.stderr, `agent enroll: ${explain(err)}`);
    return 1;
  }
}

/** Signs in and writes the state files; answers a one-line summary without any secret. */
export async function enroll(client: PlatformClient, email: string, password: string, stateDir: string): Promise<string> {
  const auth = await client.authWithPassword(email, password);
  const identity = await client.identity(auth.token, ["creds_file", "config_yaml"]);
  const paths = statePaths(stateDir);
  keepMaterial(paths.busCreds, identity.bus_user?.creds_file);
  keepMaterial(overlayConfigPath(paths), identity.overlay_host?.config_yaml);
  const { id, code, organization } = auth.record;
  writeSession(paths.session, { platform: client.url, thing: { id, email: auth.record.email, code, organization }, token: auth.token, token_expires: tokenExpiry(auth.token) });
  const parts = [`enrolled Thing ${code} at ${client.url}`, identity.bus_user ? "bus creds written" : "no bus identity", identity.overlay_host ? "overlay config written" : "no overlay host"];
  if (identity.bus_user && !identity.bus_user.active) parts.push("warning: the bus identity is suspended");
  return `${parts.join("; ")} (state in ${stateDir})`;
}

/** A message that says what to do; a platform error's own message carries no secret (client.ts). */
function explain(err: unknown): string {
  if (err instanceof PlatformError) {
    if (err.status === 0) return `${err.message} (check --platform and the network)`;
    if (err.status === 400 || err.status === 401) return "sign-in refused: wrong e-mail or password (an owner or admin can set a new password on the Thing)";
    if (err.status === 403) return "sign-in refused: the Thing is deactivated (an owner or admin re-activates it and sets a new password)";
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
