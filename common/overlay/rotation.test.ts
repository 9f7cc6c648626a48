import { describe, expect, it } from "vitest";
import { transitionRefusal } from "./rotation";

const edge = { id: "h1", name: "edge-a" };

describe("transitionRefusal", () => {
  it("allows prepare from none and prepared, commit from prepared and committed", () => {
    expect(transitionRefusal("", "prepare")).toBeUndefined();
    expect(transitionRefusal("prepared", "prepare")).toBeUndefined();
    expect(transitionRefusal("prepared", "commit")).toBeUndefined();
    expect(transitionRefusal("committed", "commit")).toBeUndefined();
  });

  it("refuses prepare while committed and commit with nothing prepared", () => {
    expect(transitionRefusal("committed", "prepare")).toBe("the overlay CA rotation is committed: finish it before preparing another");
    expect(transitionRefusal("", "commit")).toBe("no overlay CA rotation is prepared: prepare before commit");
  });

  it("refuses finish with nothing under way", () => {
    expect(transitionRefusal("", "finish")).toBe("no overlay CA rotation is under way: prepare and commit before finish");
  });

  it("refuses finish before commit, naming the missing commit and a host by id and name", () => {
    expect(transitionRefusal("prepared", "finish", edge)).toBe(
      'the overlay CA rotation is prepared but not committed: commit before finish; active host "edge-a" (id h1) still holds a certificate of the outgoing overlay CA',
    );
    expect(transitionRefusal("prepared", "finish")).toBe("the overlay CA rotation is prepared but not committed: commit before finish");
  });

  it("refuses finish after commit only while a host holds the outgoing CA", () => {
    expect(transitionRefusal("committed", "finish", edge)).toBe(
      'active host "edge-a" (id h1) still holds a certificate of the outgoing overlay CA: run commit again to re-sign it',
    );
    expect(transitionRefusal("committed", "finish")).toBeUndefined();
  });
});
