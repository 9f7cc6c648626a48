import { describe, expect, it } from "vitest";
import { cronProblem } from "./cron";

describe("cronProblem", () => {
  it.each(["0 2 * * *", "*/5 * * * *", "0-30/10 1,2,3 1-31 1-12 0-6", "59 23 31 12 6", "@daily", "@hourly", "@yearly"])(
    "accepts %j",
    (expr) => {
      expect(cronProblem(expr)).toBeUndefined();
    },
  );

  it.each([
    ["0 2 * *", "expected 5 fields"],
    ["0  2 * * *", "expected 5 fields"],
    [" 0 2 * * *", "expected 5 fields"],
    ["@every 5m", "expected 5 fields"],
    ["@DAILY", "expected 5 fields"],
    ["60 * * * *", 'minute field "60" is invalid (values 0-59)'],
    ["* 24 * * *", 'hour field "24" is invalid (values 0-23)'],
    ["* * 0 * *", 'day of month field "0" is invalid (values 1-31)'],
    ["* * * 13 *", 'month field "13" is invalid (values 1-12)'],
    ["* * * * 7", 'day of week field "7" is invalid (values 0-6)'],
    ["5/10 * * * *", 'minute field "5/10" is invalid'],
    ["*/60 * * * *", 'minute field "*/60" is invalid'],
    ["*/0 * * * *", 'minute field "*/0" is invalid'],
    ["30-10 * * * *", 'minute field "30-10" is invalid'],
    ["1,,2 * * * *", 'minute field "1,,2" is invalid'],
    ["JAN * * * *", 'minute field "JAN" is invalid'],
  ])("refuses %j", (expr, problem) => {
    expect(cronProblem(expr)).toContain(problem);
  });
});
