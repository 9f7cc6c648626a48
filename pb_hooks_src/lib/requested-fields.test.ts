import { describe, expect, it } from "vitest";
import { fieldsKeep } from "./requested-fields";

describe("fieldsKeep", () => {
  it("keeps every field without a fields parameter", () => {
    expect(fieldsKeep(undefined, "config_yaml")).toBe(true);
    expect(fieldsKeep("", "config_yaml")).toBe(true);
  });

  it("drops a field the list leaves out", () => {
    expect(fieldsKeep("id,name,network,overlay_ip,fingerprint,not_after", "config_yaml")).toBe(false);
    expect(fieldsKeep("expand.host.name", "config_yaml")).toBe(false);
  });

  it("keeps a field named, with a modifier, through an expand, or by a wildcard", () => {
    expect(fieldsKeep("id,config_yaml", "config_yaml")).toBe(true);
    expect(fieldsKeep("id, config_yaml:excerpt(200)", "config_yaml")).toBe(true);
    expect(fieldsKeep("id,expand.overlay_host.config_yaml", "config_yaml")).toBe(true);
    expect(fieldsKeep("*", "config_yaml")).toBe(true);
    expect(fieldsKeep("id,expand.overlay_host.*", "config_yaml")).toBe(true);
  });

  it("keeps it when an entry cannot be read", () => {
    expect(fieldsKeep("id,", "config_yaml")).toBe(true);
  });
});
