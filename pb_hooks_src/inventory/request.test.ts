import { describe, expect, it } from "vitest";
import { RouteError } from "../lib/errors";
import { ROLES, type Role } from "../lib/roles";
import { inventoryCollections } from "./collections";
import { DESCRIPTION_MAX, NAME_MAX, authorizeThingRequest, parseThingRequest, type ThingRequest } from "./request";

function refusal(work: () => unknown): { status: number; message: string } {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(RouteError);
    const { status, message } = err as RouteError;
    return { status, message };
  }
  throw new Error("expected a RouteError");
}

describe("parseThingRequest", () => {
  it("defaults every optional field and both identity blocks to none", () => {
    expect(parseThingRequest({ name: " Pump " })).toEqual<ThingRequest>({
      name: "Pump",
      code: "",
      description: "",
      type: "",
      location: "",
      metadata: undefined,
      bus: { mode: "none", role_id: "", user_id: "" },
      overlay: { mode: "none", network_id: "", overlay_ip: "", host_id: "" },
    });
  });

  it("reads every field", () => {
    const request = parseThingRequest({
      name: "Pump",
      code: "PMP-1",
      description: "d",
      type: "t1",
      location: "l1",
      metadata: { a: [1] },
      bus: { mode: "link", user_id: "u1", role_id: "r1" },
      overlay: { mode: "auto", network_id: "n1", overlay_ip: "10.0.0.2" },
    });
    expect(request).toMatchObject({
      code: "PMP-1",
      description: "d",
      type: "t1",
      location: "l1",
      metadata: { a: [1] },
      bus: { mode: "link", user_id: "u1", role_id: "r1" },
      overlay: { mode: "auto", network_id: "n1", overlay_ip: "10.0.0.2", host_id: "" },
    });
  });

  it("treats null blocks, null metadata and a blank mode as absent", () => {
    const request = parseThingRequest({ name: "x", metadata: null, bus: null, overlay: { mode: "" } });
    expect([request.metadata, request.bus.mode, request.overlay.mode]).toEqual([undefined, "none", "none"]);
  });

  it.each([
    ["no name", {}, "name is required"],
    ["a blank name", { name: " " }, "name is required"],
    ["a numeric name", { name: 1 }, "name must be a string"],
    ["a name over the limit", { name: "n".repeat(NAME_MAX + 1) }, `name must be at most ${NAME_MAX} characters`],
    ["a description over the limit", { name: "x", description: "d".repeat(DESCRIPTION_MAX + 1) }, `description must be at most ${DESCRIPTION_MAX} characters`],
    ["a numeric description", { name: "x", description: 5 }, "description must be a string"],
    ["an array metadata", { name: "x", metadata: [] }, "metadata must be an object"],
    ["a string metadata", { name: "x", metadata: "{}" }, "metadata must be an object"],
    ["a string bus", { name: "x", bus: "auto" }, "bus must be an object"],
    ["an array overlay", { name: "x", overlay: [] }, "overlay must be an object"],
    ["an unknown bus mode", { name: "x", bus: { mode: "manual" } }, "bus.mode must be one of auto, link, none"],
    ["an upper-case overlay mode", { name: "x", overlay: { mode: "LINK" } }, "overlay.mode must be one of auto, link, none"],
    ["a numeric mode", { name: "x", bus: { mode: 0 } }, "bus.mode must be a string"],
    ["a numeric host_id", { name: "x", overlay: { mode: "link", host_id: 1 } }, "overlay.host_id must be a string"],
    ["an object type", { name: "x", type: { id: "t" } }, "type must be a string"],
  ])("refuses %s with a 400", (_, body, message) => {
    expect(refusal(() => parseThingRequest(body))).toEqual({ status: 400, message });
  });

  it("accepts names and descriptions at the limit, counted in code points", () => {
    expect(parseThingRequest({ name: "n".repeat(NAME_MAX) }).name).toHaveLength(NAME_MAX);
    expect(parseThingRequest({ name: "🌡".repeat(NAME_MAX) }).name).toBe("🌡".repeat(NAME_MAX));
    expect(parseThingRequest({ name: "x", description: "é".repeat(DESCRIPTION_MAX) }).description).toHaveLength(DESCRIPTION_MAX);
  });

  it.each(["has space", "-lead", "_lead", "a@b", "a.b", "☃", "x".repeat(65)])("refuses the code %j the schema cannot store", (code) => {
    expect(refusal(() => parseThingRequest({ name: "x", code }))).toEqual({
      status: 400,
      message: "code must be 1 to 64 letters, digits, hyphens or underscores, starting with a letter or digit",
    });
  });

  it.each(["A", "SENS-AB12-CD34", "gw_01", "9lives", "x".repeat(64)])("accepts the code %j", (code) => {
    expect(parseThingRequest({ name: "x", code: ` ${code} ` }).code).toBe(code);
  });

  it("keeps its limits equal to the schema's", () => {
    const things = inventoryCollections().find((c) => c.key === "things");
    const max = (name: string) => {
      const field = things?.fields.find((f) => f.name === name);
      return field && field.type === "text" ? field.max : undefined;
    };
    expect([max("name"), max("description")]).toEqual([NAME_MAX, DESCRIPTION_MAX]);
  });
});

describe("authorizeThingRequest", () => {
  const request = (bus: string, overlay: string) =>
    parseThingRequest({ name: "x", bus: { mode: bus, user_id: "u", host_id: "h" }, overlay: { mode: overlay, host_id: "h" } });
  const outcome = (role: Role, bus: string, overlay: string) => {
    try {
      authorizeThingRequest(role, request(bus, overlay));
      return 200;
    } catch (err) {
      return (err as RouteError).status;
    }
  };

  it("lets member, admin and owner create inventory only Things, and nobody else", () => {
    expect(Object.fromEntries(ROLES.map((role) => [role, outcome(role, "none", "none")]))).toEqual({
      owner: 200,
      admin: 200,
      member: 200,
      viewer: 403,
      dashboard: 403,
    });
  });

  it.each([
    ["auto", "none"],
    ["link", "none"],
    ["none", "auto"],
    ["none", "link"],
    ["link", "auto"],
  ])("reserves bus %s / overlay %s to owner and admin", (bus, overlay) => {
    expect(ROLES.map((role) => outcome(role, bus, overlay))).toEqual([200, 200, 403, 403, 403]);
  });

  it("names the reason", () => {
    expect(refusal(() => authorizeThingRequest("member", request("link", "none")))).toEqual({
      status: 403,
      message: "only an owner or admin may create bus or overlay identities",
    });
    expect(refusal(() => authorizeThingRequest("viewer", request("none", "none")))).toEqual({
      status: 403,
      message: "creating Things needs the member, admin or owner role",
    });
  });
});
