import { decode } from "@nats-io/jwt";
import { createAccount, createOperator, createUser } from "@nats-io/nkeys";
import { describe, expect, it } from "vitest";
import { HttpError } from "./errors";
import { encodeJwt, goJson } from "./jwt";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const NOW = 1_800_000_000;

// Made once with github.com/nats-io/jwt/v2 v2.7.4 (Go): NewAccountClaims(pub), Name "Tenant <A&B>",
// Limits.Conn = -1, Encode(operator). ed25519 is deterministic, so the same claims, iat and key must give
// the same token byte for byte, jti included.
const GO = {
  operatorSeed: "SOAPUJWRB66QYXBBSSUTS7IFMOASD24ZXL7LBN7FAVN4ONKZ2GT37AWOAY",
  token:
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJqdGkiOiJDWlZYWERINUVJQlgzQUJTWVk2SEc1S09DVkxLUEM0M1NEVTNPWU5GRFk0VEtaNkk2R1dRIiwiaWF0IjoxNzk1MzAwNDYyLCJpc3MiOiJPQklGRFVRUVU0U0hUM1hESFhNUE9aV1I1RjdNWEhWTUFNMlFCVkxYQlpPN09HQVpKTllUV0NXVCIsIm5hbWUiOiJUZW5hbnQgXHUwMDNjQVx1MDAyNkJcdTAwM2UiLCJzdWIiOiJBQU1HN0xCNzdWV1hIREpTTUJETVhZN1VaRTJBTTNRSk5RR1MzV0hKUTNIWUM1Nk40NVBBU0JFNyIsIm5hdHMiOnsibGltaXRzIjp7InN1YnMiOi0xLCJkYXRhIjotMSwicGF5bG9hZCI6LTEsImltcG9ydHMiOi0xLCJleHBvcnRzIjotMSwid2lsZGNhcmRzIjp0cnVlLCJjb25uIjotMSwibGVhZiI6LTF9LCJkZWZhdWx0X3Blcm1pc3Npb25zIjp7InB1YiI6e30sInN1YiI6e319LCJhdXRob3JpemF0aW9uIjp7fSwidHlwZSI6ImFjY291bnQiLCJ2ZXJzaW9uIjoyfX0.EJyFdQ17llx_omtxlUMRdWg3SfJN5_U1bws2JpqENs8TP9JnGfpVR-8iJXFyXnTj_0FP0noFG5_T32HBn9b2AA",
};

const payloadOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString());

describe("NATS JWT encoding", () => {
  it("reproduces the Go library's token byte for byte (jti, escaping, field order, signature)", () => {
    const { sub, name, iat, nats } = payloadOf(GO.token);
    expect(encodeJwt(GO.operatorSeed, { sub, name, iat, nats }, NOW)).toBe(GO.token);
  });

  it("makes operator, account and user JWTs that @nats-io/jwt verifies", () => {
    const operator = createOperator();
    const account = createAccount();
    const user = createUser();
    const cases = [
      { issuer: operator, claims: { sub: operator.getPublicKey(), name: "op", nats: { type: "operator", signing_keys: [] } } },
      { issuer: operator, claims: { sub: account.getPublicKey(), name: "acct", nats: { type: "account", limits: { conn: -1 } } } },
      { issuer: account, claims: { sub: user.getPublicKey(), name: "u", nats: { type: "user", pub: { allow: ["a.>"] } } } },
    ];
    for (const { issuer, claims } of cases) {
      const jwt = encodeJwt(text(issuer.getSeed()), claims, NOW);
      const decoded = decode<Record<string, unknown>>(jwt) as unknown as Record<string, unknown>;
      expect(decoded.iss).toBe(issuer.getPublicKey());
      expect(decoded.sub).toBe(claims.sub);
      expect(decoded.iat).toBe(NOW);
      expect(decoded.jti).toMatch(/^[A-Z2-7]{52}$/);
      expect(decoded.nats).toEqual({ ...claims.nats, version: 2 });
    }
  });

  it("keeps an explicit iat and overrides iss and jti", () => {
    const account = createAccount();
    const payload = payloadOf(encodeJwt(text(account.getSeed()), { sub: createUser().getPublicKey(), iat: 1234, iss: "forged", jti: "x" }, NOW));
    expect(payload.iat).toBe(1234);
    expect(payload.iss).toBe(account.getPublicKey());
    expect(payload.jti).not.toBe("x");
  });

  it("refuses malformed claims with 400", () => {
    const seed = text(createAccount().getSeed());
    for (const claims of [{}, { sub: "" }, { sub: "U", iat: -1 }, { sub: "U", exp: 1.5 }, { sub: "U", name: 3 }, { sub: "U", nats: [] }]) {
      expect(() => encodeJwt(seed, claims, NOW)).toThrow(HttpError);
    }
  });

  it("escapes like Go's encoding/json", () => {
    expect(goJson({ a: "<&>\u2028\u2029" })).toBe('{"a":"\\u003c\\u0026\\u003e\\u2028\\u2029"}');
  });
});
