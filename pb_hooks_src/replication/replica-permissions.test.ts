import { describe, expect, it } from "vitest";
import { leasePermissions, replicaPermissions } from "./replica-permissions";

describe("replicaPermissions", () => {
  it("reaches the one bucket's stream and subjects, and replies to itself", () => {
    const { publish, subscribe } = replicaPermissions("records");
    expect(subscribe).toEqual({ allow: ["_INBOX.>"] });
    for (const subject of ["$O.records.>", "$JS.FC.OBJ_records.>", "$JS.API.CONSUMER.CREATE.OBJ_records", "$JS.API.CONSUMER.CREATE.OBJ_records.>", "$JS.API.STREAM.INFO.OBJ_records"]) {
      expect(publish.allow).toContain(subject);
    }
    // Nothing names another stream, bucket or a whole API.
    for (const subject of publish.allow ?? []) expect(subject === "$JS.API.INFO" || /OBJ_records\b|\$O\.records\./.test(subject), subject).toBe(true);
  });
});

describe("leasePermissions", () => {
  it("reaches the lease's KV bucket only", () => {
    const { publish } = leasePermissions("records-lease");
    expect(publish.allow).toContain("$KV.records-lease.>");
    for (const subject of publish.allow ?? []) expect(subject === "$JS.API.INFO" || /KV_records-lease\b|\$KV\.records-lease\./.test(subject), subject).toBe(true);
  });
});
