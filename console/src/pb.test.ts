import { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { fieldMessage, messageOf } from "./pb";

describe("server messages", () => {
  const refused = new ClientResponseError({ status: 400, response: { message: "Failed to update record.", data: { oldPassword: { code: "validation_invalid_old_password", message: "Missing or invalid old password." } } } });

  it("reads one field's message of a refused write", () => {
    expect(fieldMessage(refused, "oldPassword")).toBe("Missing or invalid old password.");
    expect(fieldMessage(refused, "password")).toBe("");
    expect(fieldMessage(new Error("x"), "oldPassword")).toBe("");
  });

  it("falls back to words when there is no message", () => {
    expect(messageOf(refused)).toBe("Failed to update record.");
    expect(messageOf(null)).toBe("Something went wrong.");
  });
});
