import { deadlineFor, DEFAULT_TIMEOUT_MS, parseDuration } from "../../../provider/fields/timeouts";

describe("timeouts", () => {
  it.each([
    ["500ms", 500],
    ["45s", 45_000],
    ["20m", 1_200_000],
    ["1h30m", 5_400_000],
    ["1.5h", 5_400_000],
  ])("parses %s", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "20", "10 minutes", "-5m", "0s"])("rejects %j with a message that shows the accepted forms", (text) => {
    const result = parseDuration(text);
    expect(typeof result).toBe("string");
  });

  it("uses the operation's own timeout, else the default", () => {
    expect(deadlineFor("create", { create: "1m" }, 0)).toBe(60_000);
    expect(deadlineFor("delete", { create: "1m" }, 0)).toBe(DEFAULT_TIMEOUT_MS.delete);
    expect(deadlineFor("update", undefined, 10)).toBe(10 + DEFAULT_TIMEOUT_MS.update);
  });
});
