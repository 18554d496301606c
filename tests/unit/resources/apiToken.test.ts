/**
 * ApiToken: the preview-time checks and the policy table (check and diff only; no API).
 */
import { UNKNOWN } from "../../../provider/lifecycle";
import { apiTokenDefinition } from "../../../resources/apiToken";
import { checkOnly } from "../../support/preview";

describe("ApiToken", () => {
  const p = checkOnly(apiTokenDefinition);
  const base = { name: "ci-deploy", expiresInDays: 30, grants: { INSTANCE: "WRITE", DISK: "NONE" } };
  it("drops NONE grants and defaults the subject to WORKSPACE", async () => {
    const r = await p.check!({}, base);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ ...base, grants: { INSTANCE: "WRITE" }, subject: "WORKSPACE", workspaceId: "42" });
  });
  it("rejects an unknown kind, a bad level and a map that is empty once NONE is dropped", async () => {
    let r = await p.check!({}, { ...base, grants: { VPC: "READ" } });
    expect(r.failures![0]).toMatchObject({ property: "grants.VPC", reason: expect.stringMatching(/unknown resource kind/) });
    r = await p.check!({}, { ...base, grants: { INSTANCE: "ADMIN" } });
    expect(r.failures![0]).toMatchObject({ property: "grants.INSTANCE", reason: expect.stringMatching(/NONE, READ or WRITE/) });
    r = await p.check!({}, { ...base, grants: { INSTANCE: "NONE" } });
    expect(r.failures![0]).toMatchObject({ property: "grants", reason: expect.stringMatching(/may not be empty/) });
  });
  it("bounds the lifetime to 7..365 days and the name to 4..48 characters", async () => {
    const r = await p.check!({}, { ...base, name: "ci", expiresInDays: 400 });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["expiresInDays", "name"]);
    expect(r.failures!.find((f) => f.property === "expiresInDays")!.reason).toMatch(/7 to 365 days/);
    expect((await p.check!({}, { ...base, expiresInDays: 6 })).failures).toHaveLength(1);
  });
  it("needs subjectId exactly when the subject is RESOURCE", async () => {
    expect((await p.check!({}, { ...base, subject: "RESOURCE" })).failures).toEqual([
      { property: "subjectId", reason: expect.stringMatching(/RESOURCE token needs subjectId/) },
    ]);
    expect((await p.check!({}, { ...base, subjectId: "7" })).failures).toEqual([
      { property: "subjectId", reason: expect.stringMatching(/only for subject RESOURCE/) },
    ]);
    expect((await p.check!({}, { ...base, subject: "RESOURCE", subjectId: "7" })).failures).toEqual([]);
    // Not known until up: checked then.
    expect((await p.check!({}, { ...base, subject: "RESOURCE", subjectId: UNKNOWN })).failures).toEqual([]);
  });
  it("replaces on every change", async () => {
    const olds = { workspaceId: "42", name: "ci-deploy", expiresInDays: 30, grants: { INSTANCE: "WRITE" }, subject: "WORKSPACE" };
    for (const change of [
      { name: "ci-deploy-2" },
      { expiresInDays: 60 },
      { grants: { INSTANCE: "READ" } },
      { subject: "RESOURCE", subjectId: "9" },
    ]) {
      const d = await p.diff!("1", olds, { ...olds, ...change });
      expect(d.replaces!.length).toBeGreaterThan(0);
    }
    expect(await p.diff!("1", { ...olds, code: "secret", lastUsed: "2026-01-01T00:00:00Z" }, olds)).toMatchObject({ changes: false });
  });
});
