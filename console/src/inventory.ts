// The Locations and Types lists as data: each collection's form fields, list columns, the capability of
// each action (spec 5.1) and what a delete does besides removing the row. One list component
// (InventoryList.svelte) renders them all.
import type { Capability } from "./capabilities";
import type { ChoiceCollection, InventoryCollection } from "./lists";

/** thing_types.prefix as the server checks it (pb_hooks_src/inventory/collections.ts), for the input's `pattern` (anchored by the browser). */
export const PREFIX_PATTERN = "[A-Za-z0-9]{1,12}";

export interface FieldDef {
  name: string;
  label: string;
  /** text: one line; long: a paragraph; choice: a relation, chosen among the active organization's rows. */
  kind: "text" | "long" | "choice";
  required?: boolean;
  maxlength?: number;
  pattern?: string;
  /** Said under the input (and read with it). */
  hint?: string;
  /** The collection a choice field relates to. */
  choices?: ChoiceCollection;
  /** Shown as a column of the list. */
  column?: boolean;
}

export interface InventoryKind {
  collection: InventoryCollection;
  singular: string;
  plural: string;
  fields: readonly FieldDef[];
  create: Capability;
  edit: Capability;
  remove: Capability;
  /**
   * What deleting one does to other records: the server unlinks optional references to it and deletes
   * the rows whose required relation cascades (an Operation with its Thing Type).
   */
  onDelete: string;
}

const NAME: FieldDef = { name: "name", label: "Name", kind: "text", required: true, maxlength: 200, column: true };
const DESCRIPTION: FieldDef = { name: "description", label: "Description", kind: "long", maxlength: 2000 };

export const LOCATIONS: InventoryKind = {
  collection: "locations",
  singular: "Location",
  plural: "Locations",
  fields: [
    NAME,
    { name: "code", label: "Code", kind: "text", maxlength: 64, column: true },
    { name: "type", label: "Location Type", kind: "choice", choices: "location_types", column: true },
    { name: "parent", label: "Parent", kind: "choice", choices: "locations", column: true },
    DESCRIPTION,
  ],
  create: "inventory.edit",
  edit: "inventory.edit",
  remove: "inventory.delete",
  onDelete: "Things and Locations in it stay, without this location.",
};

export const THING_TYPES: InventoryKind = {
  collection: "thing_types",
  singular: "Thing Type",
  plural: "Thing Types",
  fields: [
    NAME,
    {
      name: "prefix", label: "Prefix", kind: "text", pattern: PREFIX_PATTERN, column: true,
      hint: "Up to 12 letters or digits; codes generated for new Things of this type start with it.",
    },
    { ...DESCRIPTION, column: true },
  ],
  create: "types.manage",
  edit: "types.manage",
  remove: "types.manage",
  onDelete: "Things of this type stay, without a type; its Operations are deleted with it.",
};

export const LOCATION_TYPES: InventoryKind = {
  collection: "location_types",
  singular: "Location Type",
  plural: "Location Types",
  fields: [NAME, { ...DESCRIPTION, column: true }],
  create: "types.manage",
  edit: "types.manage",
  remove: "types.manage",
  onDelete: "Locations of this type stay, without a type.",
};

export const OPERATIONS: InventoryKind = {
  collection: "thing_type_operations",
  singular: "Operation",
  plural: "Thing Type Operations",
  fields: [
    NAME,
    { name: "thing_type", label: "Thing Type", kind: "choice", choices: "thing_types", required: true, column: true },
    { ...DESCRIPTION, column: true },
  ],
  create: "types.manage",
  edit: "types.manage",
  remove: "types.manage",
  onDelete: "Nothing else refers to an Operation.",
};

/** Overlay networks (owner/admin, 5.1); hosts are placed in one, so the server refuses deleting a network in use. */
export const OVERLAY_NETWORKS: InventoryKind = {
  collection: "overlay_networks",
  singular: "Network",
  plural: "Overlay networks",
  fields: [
    NAME,
    {
      name: "cidr", label: "CIDR", kind: "text", required: true, maxlength: 64, column: true,
      hint: "IPv4, /30 or wider, e.g. 10.42.0.0/16. Changing it re-signs no host: the certificate audit then lists the hosts to renew.",
    },
    { ...DESCRIPTION, column: true },
  ],
  create: "infrastructure.manage",
  edit: "infrastructure.manage",
  remove: "infrastructure.manage",
  onDelete: "The server refuses it while a host is placed in the network.",
};

/** The collections a kind's form offers choices from. */
export function choiceSources(kind: InventoryKind): ChoiceCollection[] {
  return kind.fields.flatMap((f) => (f.choices ? [f.choices] : []));
}

/** The form's starting values: the row's, or blanks for a new record. */
export function formValues(kind: InventoryKind, row?: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(kind.fields.map((f) => [f.name, typeof row?.[f.name] === "string" ? (row[f.name] as string) : ""]));
}

/** What the form sends: text trimmed (the server would store surrounding blanks as typed). */
export function payloadOf(kind: InventoryKind, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(kind.fields.map((f) => [f.name, f.kind === "choice" ? values[f.name] : values[f.name].trim()]));
}

/** The `fields` a list asks for: what its rows show and its form edits. */
export function listFields(kind: InventoryKind): string {
  return ["id", "created", ...kind.fields.map((f) => f.name)].join(",");
}
