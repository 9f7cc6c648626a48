import { describe, expect, it } from "vitest";
import { useWorld } from "../harness/world";

const { world } = useWorld();

describe("smoke", () => {
  it("seeds a world", async () => {
    expect(world.a.things.code).toMatch(/^SENS-/);
    expect(world.a.things.email).toBe(`${world.a.things.code}@${world.a.organization.code}.thing.local`);
    const owner = await world.client("owner");
    const list = await owner.collection("things").getFullList();
    expect(list.map((r) => r.id)).toEqual([world.a.things.id]);
  });
});
