import { ClientResponseError } from "pocketbase";
import { describe, expect, it } from "vitest";
import { fieldMessage, messageOf } from "./pb";

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
