import { describe, expect, it } from "vitest";
import { actorOf, type Identity } from "./actor-ref";

const user = (profileName: string, emailVisible = false): Identity => ({ collection: "users", id: "u1", email: "kate@example.com", profileName, emailVisible });

describe("actorOf", () => {
  it("names a user by profile name, by address only when visible, else by reference", () => {
    expect(actorOf(user("Kate"), "users")).toEqual({ ref: "users:u1", name: "Kate" });
    expect(actorOf(user("", true), "users").name).toBe("kate@example.com");
    expect(actorOf(user(""), "users").name).toBe("users:u1");
    expect(actorOf({ collection: "_superusers", id: "s1", email: "root@x", profileName: "", emailVisible: true }, "users").name).toBe("superuser");
    expect(actorOf(undefined, "users")).toEqual({ ref: "anonymous", name: "anonymous" });
  });

  it("adds the author's reference to a profile name that reads as the feed's own words or another's reference", () => {
    for (const name of ["superuser", "System", " anonymous ", "users:owner123", "things:abc"]) {
      expect(actorOf(user(name), "users").name, name).toBe(`${name.trim()} (users:u1)`);
    }
    expect(actorOf(user("Ops: night shift"), "users").name).toBe("Ops: night shift");
  });
});
