import { ClientResponseError } from "pocketbase";
import { describe, expect, it, vi } from "vitest";
import { FILE_TOKEN_MARGIN_MS, fieldMessage, fileTokens, messageOf, pb, protectedFileUrl } from "./pb";

describe("messageOf", () => {
  it("says the server's message and what it said about each refused field", () => {
    const refusal = new ClientResponseError({
      status: 400,
      response: { message: "Failed to create record.", data: { prefix: { code: "validation_invalid_format", message: "Must be in a valid format." } } },
    });
    expect(messageOf(refusal)).toBe("Failed to create record. prefix: Must be in a valid format.");
  });

  it("says the message alone when no field is named", () => {
    expect(messageOf(new ClientResponseError({ status: 404, response: { message: "The requested resource wasn't found.", data: {} } }))).toBe("The requested resource wasn't found.");
  });

  it("says in words why a delete a required relation blocks was refused", () => {
    const blocked = new ClientResponseError({
      status: 400,
      response: { message: "Failed to delete record. Make sure that the record is not part of a required relation reference.", data: {} },
    });
    expect(messageOf(blocked)).toBe("It is still in use: other records refer to it (a network's hosts, for example). Delete or change those first.");
  });

  it("falls back to a sentence for anything else", () => {
    expect(messageOf(undefined)).toBe("Something went wrong.");
    expect(messageOf(null)).toBe("Something went wrong.");
    expect(messageOf(new Error(""))).toBe("Something went wrong.");
  });
});

describe("fieldMessage", () => {
  const refused = new ClientResponseError({ status: 400, response: { message: "Failed to update record.", data: { oldPassword: { code: "validation_invalid_old_password", message: "Missing or invalid old password." } } } });

  it("reads one field's message of a refused write", () => {
    expect(fieldMessage(refused, "oldPassword")).toBe("Missing or invalid old password.");
    expect(fieldMessage(refused, "password")).toBe("");
    expect(fieldMessage(new Error("x"), "oldPassword")).toBe("");
  });
});

describe("fileTokens", () => {
  /** A token shaped like PocketBase's (a JWT whose payload has `exp` in seconds). */
  const jwt = (exp: number, n: number) => `h.${btoa(JSON.stringify({ exp, n })).replace(/=+$/, "")}.s`;

  function setup() {
    const clock = { now: 1_000_000_000_000, session: "session-a" };
    let minted = 0;
    const mint = vi.fn(async () => jwt(Math.floor(clock.now / 1000) + 180, ++minted));
    const next = fileTokens(mint, () => clock.session, () => clock.now);
    return { clock, mint, next };
  }

  it("reuses a token while it has more than the margin left, then asks for a new one", async () => {
    const { clock, mint, next } = setup();
    const first = await next();
    clock.now += 180_000 - FILE_TOKEN_MARGIN_MS - 1;
    expect(await next()).toBe(first);
    clock.now += 1;
    expect(await next()).not.toBe(first);
    expect(mint).toHaveBeenCalledTimes(2);
  });

  it("shares one request between concurrent callers", async () => {
    const { mint, next } = setup();
    const [a, b] = await Promise.all([next(), next()]);
    expect(a).toBe(b);
    expect(mint).toHaveBeenCalledTimes(1);
  });

  it("never hands one session's token to another", async () => {
    const { clock, next } = setup();
    const first = await next();
    clock.session = "session-b";
    expect(await next()).not.toBe(first);
  });

  it("asks again after a refused request", async () => {
    const { mint, next } = setup();
    mint.mockRejectedValueOnce(new Error("offline"));
    await expect(next()).rejects.toThrow("offline");
    await expect(next()).resolves.toMatch(/^h\./);
  });
});

describe("protectedFileUrl", () => {
  it("puts a file token, never the session token, on the file's URL", async () => {
    const getToken = vi.spyOn(pb.files, "getToken").mockResolvedValue("h.e30.s");
    const url = await protectedFileUrl({ id: "rec1", collectionId: "col1", collectionName: "locations" }, "plan_abc.png");
    expect(url).toBe("/api/files/col1/rec1/plan_abc.png?token=h.e30.s");
    expect(getToken).toHaveBeenCalledTimes(1);
  });
});
