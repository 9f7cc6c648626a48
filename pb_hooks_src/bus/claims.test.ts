import { describe, expect, it } from "vitest";
import { accountClaims, credentialSizeProblem, credsFile, limitsProblem, MAX_USER_JWT_BYTES, operatorClaims, permissionsFrom, permissionsProblem, systemAccountClaims, userClaims, type AccountState } from "./claims";

const limits = {
  max_connections: 100,
  max_subscriptions: 5000,
  max_payload: 1048576,
  max_persist_disk_storage: 5368709120,
  max_persist_memory_storage: 67108864,
};

const account: AccountState = {
  accountPub: "APUB",
  name: "acme",
  suspended: false,
  limits,
  signingKeys: ["ASK1"],
  revocations: {},
  exports: [],
  imports: [],
};

describe("operatorClaims", () => {
  it("names the system account and the signing key, and insists on signing keys", () => {
    expect(operatorClaims("op", "OPUB", "OSK", "SYSPUB")).toEqual({
      sub: "OPUB",
      name: "op",
      nats: { type: "operator", version: 2, signing_keys: ["OSK"], system_account: "SYSPUB", strict_signing_key_usage: true },
    });
  });
});

describe("systemAccountClaims", () => {
  it("spells every limit out: an empty limits object would mean zero connections", () => {
    const limitsOf = systemAccountClaims("SYS", "ASK").nats.limits as Record<string, unknown>;
    expect(limitsOf.conn).toBe(-1);
    expect(limitsOf.subs).toBe(-1);
    expect(limitsOf.payload).toBe(-1);
  });
});

describe("accountClaims", () => {
  it("stamps the provisioning limits, with persistence from the two storage limits", () => {
    const l = accountClaims(account).nats.limits as Record<string, number>;
    expect(l).toMatchObject({ conn: 100, subs: 5000, payload: 1048576, disk_storage: 5368709120, mem_storage: 67108864, data: -1 });
  });

  it("reads 0 on either persistence limit as persistence disabled for the account (both tiers), -1 as unlimited", () => {
    for (const off of ["max_persist_disk_storage", "max_persist_memory_storage"]) {
      const l = accountClaims({ ...account, limits: { ...limits, [off]: 0, max_connections: -1 } }).nats.limits as Record<string, number>;
      expect(l, off).toMatchObject({ disk_storage: 0, mem_storage: 0, conn: -1 });
    }
    const unlimited = { ...limits, max_persist_disk_storage: -1, max_persist_memory_storage: -1 };
    expect(accountClaims({ ...account, limits: unlimited }).nats.limits).toMatchObject({ disk_storage: -1, mem_storage: -1 });
  });

  it("admits nothing while suspended but keeps the persistence limits", () => {
    const l = accountClaims({ ...account, suspended: true }).nats.limits as Record<string, number>;
    expect(l).toMatchObject({ conn: 0, leaf: 0, subs: 0, payload: 0, data: 0, disk_storage: 5368709120, mem_storage: 67108864 });
  });

  it("carries signing keys, revocations, exports and imports only when present", () => {
    expect(accountClaims(account).nats).not.toHaveProperty("revocations");
    const full = accountClaims({
      ...account,
      revocations: { UPUB: 1700000000 },
      exports: [{ name: "helpdesk", subject: "helpdesk.>", type: "stream" }],
      imports: [{ name: "x", subject: "a.>", account: "AOTHER", local_subject: "b.>", type: "stream" }],
    }).nats;
    expect(full.revocations).toEqual({ UPUB: 1700000000 });
    expect(full.exports).toEqual([{ name: "helpdesk", subject: "helpdesk.>", type: "stream" }]);
    expect(full.signing_keys).toEqual(["ASK1"]);
    expect((full.imports as unknown[])[0]).toMatchObject({ local_subject: "b.>" });
  });
});

describe("userClaims", () => {
  it("names the issuing account and copies the publish permissions", () => {
    const claims = userClaims({ userPub: "UPUB", name: "dev", accountPub: "APUB", publish: { allow: ["t.>"] }, subscribe: {}, iat: 42 });
    expect(claims).toEqual({
      sub: "UPUB",
      name: "dev",
      iat: 42,
      nats: { type: "user", version: 2, subs: -1, data: -1, payload: -1, issuer_account: "APUB", pub: { allow: ["t.>"] } },
    });
  });
});

describe("credsFile", () => {
  it("has the JWT and seed blocks nats clients parse", () => {
    const text = credsFile("eyJ.jwt.sig", "SUSEED");
    expect(text).toMatch(/-----BEGIN NATS USER JWT-----\neyJ\.jwt\.sig\n------END NATS USER JWT------/);
    expect(text).toMatch(/-----BEGIN USER NKEY SEED-----\nSUSEED\n------END USER NKEY SEED------/);
  });
});

describe("permissionsFrom", () => {
  it("reads {allow, deny} and a plain list as allow", () => {
    expect(permissionsFrom({ allow: ["a.>"], deny: ["a.b"] })).toEqual({ allow: ["a.>"], deny: ["a.b"] });
    expect(permissionsFrom(["x.*", 3, ""])).toEqual({ allow: ["x.*"] });
    expect(permissionsFrom(null)).toEqual({});
  });
});

describe("limitsProblem", () => {
  it("takes the five limits as whole numbers of -1 or more", () => {
    expect(limitsProblem(limits)).toBeUndefined();
    expect(limitsProblem({ ...limits, max_connections: -1, max_persist_disk_storage: 0 })).toBeUndefined();
  });

  it.each([
    [null, "must be an object with max_connections"],
    ["garbage", "must be an object with max_connections"],
    [[1, 2], "must be an object with max_connections"],
    [{ ...limits, max_payload: "abc" }, 'max_payload must be a whole number, -1 (unlimited) or more, got "abc"'],
    [{ ...limits, max_connections: -5 }, "max_connections must be a whole number, -1 (unlimited) or more, got -5"],
    [{ ...limits, max_subscriptions: 1.5 }, "got 1.5"],
    [{ ...limits, max_persist_memory_storage: undefined }, "max_persist_memory_storage must be a whole number, -1 (unlimited) or more, got nothing"],
    [{ ...limits, max_conections: 5 }, "has unknown keys: max_conections"],
  ])("refuses %j", (value, problem) => {
    expect(limitsProblem(value)).toContain(problem);
  });
});

describe("permissionsProblem", () => {
  it("accepts no value, a list of subjects, and allow/deny lists", () => {
    for (const value of [null, undefined, [], ["telemetry.>"], { allow: ["a.>"] }, { deny: [">"] }, { allow: ["a.*"], deny: ["a.b"] }, {}]) {
      expect(permissionsProblem(value), JSON.stringify(value)).toBeUndefined();
    }
  });

  it("refuses every other shape, each of which permissionsFrom would read as no list at all", () => {
    for (const value of ["telemetry.>", 5, true, { allow: "telemetry.>" }, { deny: ">" }, { allow: [5] }, ["a b"], [""], { publish: ["a"] }]) {
      expect(permissionsProblem(value), JSON.stringify(value)).toBe("must be a list of subjects, or an object with allow and deny lists of subjects");
    }
    expect(permissionsFrom({ deny: ">" })).toEqual({ allow: [], deny: [] }); // why: a deny of ">" given as a string denied nothing
  });
});

describe("credentialSizeProblem", () => {
  it("lets a credential through up to the size a CONNECT line leaves it, and names the size past it", () => {
    expect(credentialSizeProblem("x".repeat(MAX_USER_JWT_BYTES))).toBeUndefined();
    expect(credentialSizeProblem("x".repeat(MAX_USER_JWT_BYTES + 1))).toMatch(/^the permissions make a credential of 3585 bytes, more than the 3584 .* wildcards$/);
  });
});
