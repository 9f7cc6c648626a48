import { describe, expect, it } from "vitest";
import { countedTotalApplies } from "./list-totals";

describe("countedTotalApplies", () => {
  it("applies to an unfiltered page that asks for its total", () => {
    expect(countedTotalApplies("", "", "")).toBe(true);
    expect(countedTotalApplies("  ", "false", "-created")).toBe(true);
    expect(countedTotalApplies("", "0", "@random,name")).toBe(true);
  });

  it("leaves a filtered page to PocketBase, whose count knows the filter", () => {
    expect(countedTotalApplies(`name ~ "a"`, "", "")).toBe(false);
  });

  it("leaves a page sorted through a relation to PocketBase: the join leaves out rows the caller may not read", () => {
    expect(countedTotalApplies("", "", "bus_user.name")).toBe(false);
    expect(countedTotalApplies("", "", "name,-location.name")).toBe(false);
    expect(countedTotalApplies("", "", "@collection.locations.name")).toBe(false);
  });

  it("leaves a page without its total, or with a skipTotal PocketBase refuses, alone", () => {
    expect(countedTotalApplies("", "1", "")).toBe(false);
    expect(countedTotalApplies("", "true", "")).toBe(false);
    expect(countedTotalApplies("", "maybe", "")).toBe(false);
  });
});
