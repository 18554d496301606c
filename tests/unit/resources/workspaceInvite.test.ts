/**
 * WorkspaceInvite: the preview-time checks and the policy table (check and diff only; no API).
 */
import { workspaceInviteDefinition } from "../../../resources/workspaceInvite";
import { checkOnly } from "../../support/preview";
import { fakeContext } from "./support";

describe("WorkspaceInvite", () => {
  const p = checkOnly(workspaceInviteDefinition);
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
    expect(workspaceInviteDefinition.secretOutputs).toEqual(["code"]);
    expect(workspaceInviteDefinition.keepFromState).toEqual(["code"]);
  });
});

describe("WorkspaceInvite API mapping (the state's shape)", () => {
  const apiInvite = {
    id: 8,
    user: { id: 9, name: "ana" },
    target: null,
    email: "bo@example.com",
    workspace: { id: 42, name: "ws" },
    expires: "2999-01-01T00:00:00Z",
    access_level: "EDITOR",
    created: "2026-01-01T00:00:00Z",
  };

  it("creates with email and access_level, keeps the code from the answer, and reads what the state records", async () => {
    const { ctx, calls } = fakeContext(
      { "POST /v1/workspaces/42/invites": () => ({ ...apiInvite, code: "c0de" }), "PATCH /v1/invites/8": () => ({}) },
      "create",
    );
    expect(await workspaceInviteDefinition.api.create(ctx, { workspaceId: "42", email: "bo@example.com", accessLevel: "EDITOR" })).toEqual({
      id: "8",
      outputs: { code: "c0de" },
    });
    await workspaceInviteDefinition.api.update!.updateRequest!(
      ctx,
      "8",
      {} as never,
      { workspaceId: "42", email: "bo@example.com", accessLevel: "VIEWER" },
      ["accessLevel"],
    );
    expect(calls).toEqual([
      { method: "POST", path: "/v1/workspaces/42/invites", body: { email: "bo@example.com", access_level: "EDITOR" } },
      { method: "PATCH", path: "/v1/invites/8", body: { access_level: "VIEWER" } },
    ]);
    const read = async (answer: object) =>
      workspaceInviteDefinition.api.get(fakeContext({ "GET /v1/invites/8": () => answer }).ctx, "8", { workspaceId: "7" });
    expect(await read(apiInvite)).toStrictEqual({
      workspaceId: "42",
      email: "bo@example.com",
      accessLevel: "EDITOR",
      state: "PENDING",
      expires: "2999-01-01T00:00:00Z",
      acceptedBy: null,
      invitedBy: { id: "9", name: "ana" },
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(
      await read({ id: 8, email: "bo@example.com", expires: "2000-01-01T00:00:00Z", access_level: "VIEWER", target: 11 }),
    ).toStrictEqual({
      workspaceId: "7",
      email: "bo@example.com",
      accessLevel: "VIEWER",
      state: "ACCEPTED",
      expires: "2000-01-01T00:00:00Z",
      acceptedBy: "11",
      invitedBy: null,
    });
  });
});
