import { foundAfter, remedyFor, updateRetryFor, type Found, type Remedy, type UpdateRetry } from "../../../provider/lifecycle/afterFailure";

describe("what a create that failed after the API made its object leaves", () => {
  it.each<[Found, boolean, Remedy]>([
    ["gone", true, "forget"],
    ["gone", false, "forget"],
    ["broken", true, "remove"],
    ["broken", false, "keep"],
    ["repairable", true, "keep"],
    ["repairable", false, "keep"],
    ["unread", true, "keep"],
    ["unread", false, "keep"],
  ])("found %s (removable: %s): %s", (found, removable, remedy) => {
    expect(remedyFor(found, removable)).toBe(remedy);
  });
});

describe("what the same update called again can do after it failed", () => {
  it.each<[Found, UpdateRetry]>([
    ["broken", "next up replaces"],
    ["repairable", "in place"],
    ["gone", "in place"],
    ["unread", "in place"],
  ])("found %s: %s", (found, retry) => {
    expect(updateRetryFor(found)).toBe(retry);
  });
});

describe("what was found after a failure", () => {
  const broken = (o: { state: string }) => o.state === "FAILED";
  it.each<[{ state: string } | undefined | "unread", Found]>([
    ["unread", "unread"],
    [undefined, "gone"],
    [{ state: "FAILED" }, "broken"],
    [{ state: "PENDING" }, "repairable"],
  ])("%j: %s", (current, found) => {
    expect(foundAfter(current, broken)).toBe(found);
  });
});
