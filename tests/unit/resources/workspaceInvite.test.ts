/**
 * WorkspaceInvite: the preview-time checks and the policy table (check and diff only; no API).
 */
import { workspaceInviteSpec } from "../../../resources/workspaceInvite";
import { checkOnly } from "../../support/preview";

describe("WorkspaceInvite", () => {
  const p = checkOnly(workspaceInviteSpec);
  it("rejects OWNER at preview with the rule", async () => {
    const r = await p.check!({}, { email: "a@example.com", accessLevel: "OWNER" });
    expect(r.failures).toHaveLength(1);
    expect(r.failures![0].property).toBe("accessLevel");
    expect(r.failures![0].reason).toMatch(/OWNER is never assignable by invite.*lower than your own role/);
  });
  it("lower-cases the email as the API stores it", async () => {
    const r = await p.check!({}, { email: "New.Person@Example.COM", accessLevel: "VIEWER" });
    expect(r.inputs).toMatchObject({ email: "new.person@example.com", workspaceId: "42" });
  });
  it("rejects a malformed email", async () => {
    const r = await p.check!({}, { email: "not-an-address", accessLevel: "VIEWER" });
    expect(r.failures![0]).toMatchObject({ property: "email", reason: expect.stringMatching(/email address/) });
  });
  it("patches the level, replaces on a new email", async () => {
    const olds = { workspaceId: "42", email: "a@example.com", accessLevel: "VIEWER", state: "PENDING" };
    expect(await p.diff!("1", olds, { ...olds, accessLevel: "EDITOR" })).toMatchObject({ changes: true, replaces: [] });
    expect(await p.diff!("1", olds, { ...olds, email: "b@example.com" })).toMatchObject({
      replaces: ["email"],
      deleteBeforeReplace: false,
    });
  });
  it("replaces an expired invite, deleting it first", async () => {
    const olds = { workspaceId: "42", email: "a@example.com", accessLevel: "VIEWER", state: "EXPIRED" };
    expect(await p.diff!("1", olds, { workspaceId: "42", email: "a@example.com", accessLevel: "VIEWER" })).toMatchObject({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
  });
  it("marks the code secret and keeps it from state", () => {
    expect(workspaceInviteSpec.secretOutputs).toEqual(["code"]);
    expect(workspaceInviteSpec.keepFromState).toEqual(["code"]);
  });
});
