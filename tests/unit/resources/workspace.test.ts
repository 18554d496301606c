/**
 * Workspace: the preview-time checks and the policy table (check and diff only; no API).
 */
import { workspaceDefinition } from "../../../resources/workspace";
import { checkOnly } from "../../support/preview";
import { fakeContext } from "./support";

describe("Workspace", () => {
  const p = checkOnly(workspaceDefinition);
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
    expect(workspaceDefinition.retainOnDelete).toBe(true);
  });
});

describe("Workspace API mapping (the state's shape)", () => {
  it("creates with the name only, patches the changed settings in the API's names, and reads what the state records", async () => {
    const { ctx, calls } = fakeContext({ "POST /v1/workspaces": () => ({ id: 42 }), "PATCH /v1/workspaces/42": () => ({}) }, "create");
    expect(await workspaceDefinition.api.create(ctx, { name: "team", mfaRequired: true, disableSshPassword: false })).toEqual({ id: "42" });
    await workspaceDefinition.api.update!.updateRequest!(
      ctx,
      "42",
      {} as never,
      { name: "team2", mfaRequired: true, disableSshPassword: false },
      ["mfaRequired", "disableSshPassword"],
    );
    expect(calls).toEqual([
      { method: "POST", path: "/v1/workspaces", body: { name: "team" } },
      { method: "PATCH", path: "/v1/workspaces/42", body: { mfa_required: true, disable_ssh_password: false } },
    ]);
    const read = async (answer: object) =>
      workspaceDefinition.api.get(fakeContext({ "GET /v1/workspaces/42": () => answer }).ctx, "42", {});
    const full = {
      id: 42,
      name: "team",
      owner: { id: 9, name: "ana" },
      flags: ["BETA"],
      mfa_required: true,
      disable_ssh_password: false,
      created: "2026-01-01T00:00:00Z",
    };
    expect(await read(full)).toStrictEqual({
      name: "team",
      mfaRequired: true,
      disableSshPassword: false,
      owner: { id: "9", name: "ana" },
      flags: ["BETA"],
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(await read({ id: 42, name: "team" })).toStrictEqual({
      name: "team",
      mfaRequired: false,
      disableSshPassword: false,
      owner: null,
      flags: [],
    });
  });
});
