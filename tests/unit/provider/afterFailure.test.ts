import { remedyFor, type Found, type Remedy } from "../../../provider/lifecycle/afterFailure";

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
