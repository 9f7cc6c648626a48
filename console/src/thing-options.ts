// The choices the forms offer (Things, Locations, Operations): only records of the active organization.
// The read rules already scope every org-scoped collection to users.current_organization
// (schema/rules.ts#memberOf), so the lists carry no filter of their own.
import { can, type Identity } from "./capabilities";
import { CHOICE_SORT, type ChoiceCollection } from "./lists";
import { pb } from "./pb";

export interface Choice {
  id: string;
  label: string;
}

export interface ThingChoices {
  types: Choice[];
  locations: Choice[];
  busRoles: Choice[];
  busUsers: Choice[];
  networks: Choice[];
  hosts: Choice[];
  /** The organization is suspended: `bus.mode = auto` will be refused (spec 4.2 rule 2). */
  suspended: boolean;
}

/** A collection's rows as choices, by name (the read rule keeps them to the active organization). */
export async function loadChoices(collection: ChoiceCollection, label = (r: Record<string, unknown>) => String(r.name)): Promise<Choice[]> {
  const rows = await pb.collection(collection).getFullList({
    sort: CHOICE_SORT,
    fields: "id,name,overlay_ip",
  });
  return rows.map((row) => ({ id: row.id, label: label(row) }));
}

/** Bus and overlay rows are read only by owners and admins (5.1), so others never ask for them. */
export async function loadThingChoices(organization: string, identity: Identity): Promise<ThingChoices> {
  const infrastructure = can(identity, "infrastructure.manage");
  const none = Promise.resolve<Choice[]>([]);
  const [types, locations, busRoles, busUsers, networks, hosts, org] = await Promise.all([
    loadChoices("thing_types"),
    loadChoices("locations"),
    infrastructure ? loadChoices("bus_roles") : none,
    infrastructure ? loadChoices("bus_users") : none,
    infrastructure ? loadChoices("overlay_networks") : none,
    infrastructure ? loadChoices("overlay_hosts", (r) => `${String(r.name)} (${String(r.overlay_ip)})`) : none,
    pb.collection("organizations").getOne(organization, { fields: "id,active" }),
  ]);
  return { types, locations, busRoles, busUsers, networks, hosts, suspended: org.active !== true };
}
