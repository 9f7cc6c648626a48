import { describe, expect, it } from "vitest";
import { failureText } from "./command-run";

describe("failureText", () => {
  it("keeps a plain message as it is", () => {
    expect(failureText(new Error("--email is required"))).toBe("--email is required");
    expect(failureText("email: must be a valid email address.")).toBe("email: must be a valid email address.");
  });

  it("drops the goja frame a JS error carries after crossing Go", () => {
    expect(failureText(new Error("--email is required at bootstrap2 (/srv/pb_hooks/lib/loader.js:2297:29(18))"))).toBe("--email is required");
    expect(failureText(new Error("Error: refused at check (/srv/pb_hooks/lib/platform.js:10:3)"))).toBe("Error: refused");
    expect(failureText(new Error("value is not a string at github.com/pocketbase/pocketbase/core.(*Record).Set-fm (native)"))).toBe("value is not a string");
  });

  it("keeps one period where a validation error adds its own after PocketBase's", () => {
    expect(failureText("name: Must be no more than 200 character(s)..")).toBe("name: Must be no more than 200 character(s).");
    expect(failureText("code: Cannot be blank.; name: Must be no more than 200 character(s)..")).toBe("code: Cannot be blank; name: Must be no more than 200 character(s).");
    expect(failureText("see the log...")).toBe("see the log...");
  });

  it("keeps only the first line", () => {
    expect(failureText(new Error("first\ngoroutine 1 [running]:"))).toBe("first");
  });

  it("leaves an ' at ' inside the message alone", () => {
    expect(failureText(new Error("no listener at 127.0.0.1:4222 (bus)"))).toBe("no listener at 127.0.0.1:4222 (bus)");
  });
});
