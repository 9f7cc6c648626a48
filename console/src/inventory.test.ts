import { describe, expect, it } from "vitest";
import { LOCATIONS, LOCATION_TYPES, OPERATIONS, OVERLAY_NETWORKS, THING_TYPES, formValues, listFields, payloadOf } from "./inventory";

describe("inventory lists and forms", () => {
  it("offers Location and Thing edits to editors, their deletes and all type management to managers (5.1)", () => {
    expect([LOCATIONS.create, LOCATIONS.edit, LOCATIONS.remove]).toEqual(["inventory.edit", "inventory.edit", "inventory.delete"]);
    for (const kind of [THING_TYPES, LOCATION_TYPES, OPERATIONS]) expect([kind.create, kind.edit, kind.remove]).toEqual(["types.manage", "types.manage", "types.manage"]);
    expect([OVERLAY_NETWORKS.create, OVERLAY_NETWORKS.edit, OVERLAY_NETWORKS.remove]).toEqual(["infrastructure.manage", "infrastructure.manage", "infrastructure.manage"]);
  });

  it("fills a form from a row, sends trimmed text and the chosen relations", () => {
    const values = formValues(LOCATIONS, { id: "x", name: " Hall ", code: "H1", type: "t1", parent: "", description: null });
    expect(values).toEqual({ name: " Hall ", code: "H1", type: "t1", parent: "", description: "" });
    expect(payloadOf(LOCATIONS, values)).toEqual({ name: "Hall", code: "H1", type: "t1", parent: "", description: "" });
    expect(formValues(OPERATIONS)).toEqual({ name: "", thing_type: "", description: "" });
    expect(listFields(THING_TYPES)).toBe("id,created,name,prefix,description");
  });
});
