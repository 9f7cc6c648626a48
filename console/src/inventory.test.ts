import { describe, expect, it } from "vitest";
import { THING_TYPE_PREFIX_PATTERN, inventoryCollections } from "../../pb_hooks_src/inventory/collections";
import { overlayCollections } from "../../pb_hooks_src/overlay/collections";
import { LOCATIONS, LOCATION_TYPES, OPERATIONS, OVERLAY_NETWORKS, PREFIX_PATTERN, THING_TYPES, formValues, listFields, payloadOf } from "./inventory";

const specs = [...inventoryCollections(), ...overlayCollections()];
const KINDS = [LOCATIONS, THING_TYPES, LOCATION_TYPES, OPERATIONS, OVERLAY_NETWORKS];

describe("inventory lists and forms", () => {
  it("edit only fields their collections have, with the server's relation targets, lengths and required flags", () => {
    for (const kind of KINDS) {
      const fields = specs.find((c) => c.key === kind.collection)?.fields ?? [];
      for (const field of kind.fields) {
        const spec = fields.find((f) => f.name === field.name);
        expect(spec, `${kind.collection}.${field.name}`).toBeDefined();
        if (field.kind === "choice") expect(spec, `${kind.collection}.${field.name}`).toMatchObject({ type: "relation", target: field.choices });
        else expect(spec?.type, `${kind.collection}.${field.name}`).toBe("text");
        expect(spec && "required" in spec && spec.required === true, `${kind.collection}.${field.name} required`).toBe(field.required === true);
        if (field.maxlength !== undefined) expect(spec, `${kind.collection}.${field.name}`).toMatchObject({ max: field.maxlength });
      }
    }
  });

  it("checks a Thing Type's prefix in the browser as the server does", () => {
    expect(`^${PREFIX_PATTERN}$`).toBe(THING_TYPE_PREFIX_PATTERN);
  });

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
