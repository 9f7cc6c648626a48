import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./harness/platform";
import { buildWorld, type World } from "./harness/world";

let platform: Platform;
let world: World;

beforeAll(async () => {
  platform = await startPlatform();
  world = await buildWorld(platform);
});
afterAll(async () => platform?.stop());

describe("smoke", () => {
  it("seeds a world", async () => {
    expect(world.a.things.code).toMatch(/^SENS-/);
    expect(world.a.things.email).toBe(`${world.a.things.code}@${world.a.organization.code}.thing.local`);
    const owner = await world.client("owner");
    const list = await owner.collection("things").getFullList();
    expect(list.map((r) => r.id)).toEqual([world.a.things.id]);
  });
});
