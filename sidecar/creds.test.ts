import { createAccount, createUser, fromPublic } from "@nats-io/nkeys";
import { describe, expect, it } from "vitest";
import { credsSigner, parseCreds } from "./creds";
import { HttpError } from "./errors";

const credsText = (jwt: string, seed: string) =>
  `-----BEGIN NATS USER JWT-----\n${jwt}\n------END NATS USER JWT------\n\n` +
  "************************* IMPORTANT *************************\nNKEY Seed printed below can be used to sign and prove identity.\n\n" +
  `-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n\n*************************************************************\n`;

describe("creds", () => {
  const user = createUser();
  const seed = new TextDecoder().decode(user.getSeed());
  const jwt = "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVIn0.c2ln";

  it("signs the server's nonce so that the user's public key verifies it", () => {
    const auth = credsSigner(parseCreds(credsText(jwt, seed)))("a-nonce-from-the-server") as { jwt: string; nkey: string; sig: string };
    expect(auth.jwt).toBe(jwt);
    expect(auth.nkey).toBe(user.getPublicKey());
    const signature = Buffer.from(auth.sig, "base64url");
    expect(fromPublic(auth.nkey).verify(new TextEncoder().encode("a-nonce-from-the-server"), signature)).toBe(true);
  });

  it("refuses what is not a user's creds file, without repeating it", () => {
    const refusal = (text: string) => {
      try {
        parseCreds(text);
      } catch (err) {
        return err;
      }
      return undefined;
    };
    for (const text of ["", seed, credsText(jwt, "SUAnotaseed")]) {
      const err = refusal(text);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).not.toContain(seed.slice(4));
    }
    const account = new TextDecoder().decode(createAccount().getSeed());
    expect((refusal(credsText(jwt, account)) as HttpError | undefined)?.message).toBe("creds holds the seed of an nkey that is not a user's");
  });
});
