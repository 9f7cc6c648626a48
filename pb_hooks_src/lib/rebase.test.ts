import { describe, expect, it } from "vitest";
import { rebaseOnCommitted } from "./rebase";

type Row = Record<string, unknown>;

function fakeRecord(data: Row, loaded: Row, fields: [string, string][]): core.Record {
  const record = {
    getRaw: (name: string) => data[name],
    setRaw: (name: string, value: unknown) => void (data[name] = value),
    original: () => ({ getRaw: (name: string) => loaded[name] }),
    collection: () => ({ fields: fields.map(([name, type]) => ({ getName: () => name, type: () => type })) }),
  };
  return record as unknown as core.Record;
}

const text = (raw: unknown) => JSON.stringify(raw);
const FIELDS: [string, string][] = [["active", "bool"], ["tokenKey", "text"], ["name", "text"], ["updated", "autodate"]];

describe("rebaseOnCommitted", () => {
  it("takes the committed value of every field the write left as loaded, and keeps the write's own changes", () => {
    const loaded = { active: true, tokenKey: "k1", name: "a", updated: "t1" };
    const data = { ...loaded, name: "mine" };
    const committed = fakeRecord({ active: false, tokenKey: "k2", name: "theirs", updated: "t2" }, {}, FIELDS);
    rebaseOnCommitted(fakeRecord(data, loaded, FIELDS), committed, text);
    expect(data).toEqual({ active: false, tokenKey: "k2", name: "mine", updated: "t1" });
  });

  it("leaves a write unchanged when nothing was committed meanwhile", () => {
    const loaded = { active: true, tokenKey: "k1", name: "a", updated: "t1" };
    const data = { ...loaded, active: false };
    rebaseOnCommitted(fakeRecord(data, loaded, FIELDS), fakeRecord({ ...loaded }, {}, FIELDS), text);
    expect(data).toEqual({ ...loaded, active: false });
  });
});
