/**
 * Workspace: the preview-time checks and the policy table (check and diff only; no API).
 */
import { workspaceSpec } from "../../../resources/workspace";
import { checkOnly } from "../../support/preview";

describe("Workspace", () => {
  const p = checkOnly(workspaceSpec);
  it("checks the name length with the rule", async () => {
    const r = await p.check!({}, { name: "abc" });
    expect(r.failures).toEqual([{ property: "name", reason: "must be 4 to 32 characters (spec part 1, Workspaces)" }]);
  });
  it("is not workspace-scoped and patches every field", async () => {
    const r = await p.check!({}, { name: "team-a", mfaRequired: true });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ name: "team-a", mfaRequired: true });
    const d = await p.diff!(
      "1",
      { name: "team-a", mfaRequired: false, disableSshPassword: false },
      { name: "team-b", mfaRequired: true, disableSshPassword: true },
    );
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });
  it("is retained on destroy (the API has no delete)", () => {
    expect(workspaceSpec.retainOnDelete).toBe(true);
  });
});
