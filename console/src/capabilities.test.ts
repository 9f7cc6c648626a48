// The 5.1 capability matrix row by row, the 2.2 role standing, for every role and a Platform Operator
// with and without a membership. SuperUser-only rows have no console identity (a SuperUser is sent to /_/).
import { describe, expect, it } from "vitest";
import { ROLES, can, canSee, landingScreen, screensFor, type Capability, type Identity, type Role } from "./capabilities";

type Who = Role | "operator";
const EVERYONE: readonly Who[] = [...ROLES, "operator"];

const identityOf = (who: Who): Identity => (who === "operator" ? { role: null, operator: true } : { role: who, operator: false });

/** Each row of spec 5.1 with the capabilities the console derives from it, and who (besides SuperUser) holds them. */
const MATRIX: ReadonlyArray<{ row: string; capabilities: Capability[]; allowed: Who[] }> = [
  { row: "Read things, locations, thing_types, location_types, thing_type_operations", capabilities: ["inventory.read"], allowed: ["owner", "admin", "member", "viewer", "dashboard"] },
  { row: "Create and edit Things and Locations", capabilities: ["inventory.edit"], allowed: ["owner", "admin", "member"] },
  { row: "Delete a Thing or Location", capabilities: ["inventory.delete"], allowed: ["owner", "admin"] },
  { row: "Deactivate or reactivate a Thing; reset a Thing's password; attach a bus user or overlay host to a Thing", capabilities: ["things.identity"], allowed: ["owner", "admin"] },
  { row: "Manage Thing Types, Operations", capabilities: ["types.manage"], allowed: ["owner", "admin"] },
  { row: "Read or manage bus users, roles, imports, exports; overlay networks and hosts", capabilities: ["infrastructure.manage"], allowed: ["owner", "admin"] },
  { row: "Read the organization's bus account and overlay CA", capabilities: ["account.read"], allowed: ["owner", "admin", "member", "viewer", "dashboard", "operator"] },
  { row: "Edit the bus account or overlay CA record directly", capabilities: ["account.edit"], allowed: ["operator"] },
  { row: "Manage account signing keys through the route", capabilities: ["signing-keys.manage"], allowed: ["owner", "admin"] },
  { row: "Roll the overlay CA through the route", capabilities: ["overlay-ca.rotate"], allowed: ["owner", "admin"] },
  { row: "Read own linked bus identity; clear own membership's link; rotate own credential", capabilities: ["own-bus-identity"], allowed: ["owner", "admin", "member", "viewer", "dashboard"] },
  { row: "Choose which bus identity a membership links to; revoke-and-replace, suspend or reactivate a bus identity", capabilities: ["bus-identity.manage"], allowed: ["owner", "admin"] },
  { row: "Manage persistent streams and key-value buckets (console offers it to owner/admin)", capabilities: ["streams.manage"], allowed: ["owner", "admin"] },
  { row: "Use dashboards", capabilities: ["dashboards.use"], allowed: ["owner", "admin", "member", "viewer", "dashboard"] },
  { row: "Invite users, manage memberships (Platform Operator may create invites only)", capabilities: ["memberships.manage"], allowed: ["owner", "admin"] },
  { row: "Invite users (create invitations)", capabilities: ["invites.create"], allowed: ["owner", "admin", "operator"] },
  { row: "Create, edit, suspend, reactivate, delete an Organization", capabilities: ["organizations.manage"], allowed: ["operator"] },
  { row: "Read the activity feed (API: all five roles; console omits dashboard)", capabilities: ["activity.read"], allowed: ["owner", "admin", "member", "viewer"] },
  { row: "Read the audit log", capabilities: ["audit.read"], allowed: ["operator"] },
  { row: "2.2: an owner cannot leave their own organization (console guard)", capabilities: ["organization.leave"], allowed: ["admin", "member", "viewer", "dashboard"] },
];

describe("capability matrix (spec 5.1)", () => {
  for (const { row, capabilities, allowed } of MATRIX) {
    it(row, () => {
      for (const capability of capabilities) {
        const holders = EVERYONE.filter((who) => can(identityOf(who), capability));
        expect(holders, capability).toEqual(allowed);
      }
    });
  }

  it("a Platform Operator with a membership holds the role's capabilities and the operator's", () => {
    const operatorViewer: Identity = { role: "viewer", operator: true };
    for (const { capabilities, allowed } of MATRIX) {
      for (const capability of capabilities) {
        const expected = allowed.includes("viewer") || allowed.includes("operator");
        expect(can(operatorViewer, capability), capability).toBe(expected);
      }
    }
  });

  it("a user with neither a membership nor the operator flag holds nothing", () => {
    const nobody: Identity = { role: null, operator: false };
    for (const { capabilities } of MATRIX) for (const c of capabilities) expect(can(nobody, c), c).toBe(false);
  });
});

describe("screens per role (spec 2.2)", () => {
  const expected: Record<Who, string[]> = {
    owner: ["visualizer", "live", "fleet", "things", "locations", "types", "overlay", "members", "invitations", "activity", "bus", "streams", "settings"],
    admin: ["visualizer", "live", "fleet", "things", "locations", "types", "overlay", "members", "invitations", "activity", "bus", "streams", "settings"],
    // The bus account is readable by every role (5.1); its management parts are owner/admin.
    member: ["visualizer", "live", "fleet", "things", "locations", "types", "overlay", "activity", "bus", "settings"],
    viewer: ["visualizer", "live", "fleet", "things", "locations", "types", "overlay", "activity", "bus", "settings"],
    // "Console reaches only the visualizer and its settings."
    dashboard: ["visualizer", "settings"],
    // Organizations, audit, invitations (create only); no tenant data without a membership.
    operator: ["invitations", "organizations", "audit", "settings"],
  };
  for (const who of EVERYONE) {
    it(`${who} sees ${expected[who].join(", ")}`, () => {
      expect(screensFor(identityOf(who))).toEqual(expected[who]);
    });
  }

  it("a Platform Operator who is also a viewer sees the viewer's screens and the operator's", () => {
    expect(screensFor({ role: "viewer", operator: true })).toEqual([
      "visualizer", "live", "fleet", "things", "locations", "types", "overlay", "invitations", "activity", "bus", "organizations", "audit", "settings",
    ]);
  });

  it("overlay (5.1: the CA is readable by every role): every role that browses, not the dashboard role nor an operator without a membership", () => {
    const seeing = EVERYONE.filter((who) => canSee(identityOf(who), "overlay"));
    expect(seeing).toEqual(["owner", "admin", "member", "viewer"]);
  });

  it("streams (5.1: persistent streams and buckets, offered to owner/admin): owner and admin only, not an operator without a membership", () => {
    const seeing = EVERYONE.filter((who) => canSee(identityOf(who), "streams"));
    expect(seeing).toEqual(["owner", "admin"]);
    expect(canSee({ role: "viewer", operator: true }, "streams")).toBe(false);
  });

  it("a user without organization sees only settings", () => {
    expect(screensFor({ role: null, operator: false })).toEqual(["settings"]);
  });

  it("landing: dashboard on the visualizer, other roles on Things, an operator without membership on Organizations", () => {
    expect(landingScreen(identityOf("dashboard"))).toBe("visualizer");
    for (const role of ["owner", "admin", "member", "viewer"] as const) expect(landingScreen(identityOf(role))).toBe("things");
    expect(landingScreen(identityOf("operator"))).toBe("organizations");
    expect(landingScreen({ role: null, operator: false })).toBe("settings");
    for (const who of EVERYONE) expect(canSee(identityOf(who), landingScreen(identityOf(who)))).toBe(true);
  });
});
