import { describe, expect, it } from "vitest";
import { userNoticeSubject } from "../../common/bus/notices";
import { withNotices } from "./notices";

describe("withNotices", () => {
  it("leaves an unrestricted role unrestricted but for publishing notices and other slots' subjects", () => {
    const { publish, subscribe } = withNotices({}, {}, 5);
    expect(publish).toEqual({ allow: undefined, deny: ["_PN.>"] });
    expect(subscribe.allow).toBeUndefined();
    expect(subscribe.deny).toHaveLength(20);
  });

  it("adds the user's own and its organization's subjects to an allow list, and keeps the role's denials", () => {
    const { publish, subscribe } = withNotices({ allow: ["telemetry.>"], deny: ["admin.>"] }, { allow: ["cmd.>"], deny: ["secret.>"] }, 9);
    expect(publish).toEqual({ allow: ["telemetry.>"], deny: ["admin.>", "_PN.>"] });
    expect(subscribe.allow).toEqual(["cmd.>", userNoticeSubject("*", 9), "_PN.*.account", "_PN.*.overlay"]);
    expect(subscribe.deny?.[0]).toBe("secret.>");
    expect(subscribe.deny).toHaveLength(21);
  });
});
