/**
 * Access resources through the real pulumi engine, for what only the engine shows: one `up`.
 *
 * - Secret outputs the provider reads from the API's answers (a token's and an invite's code),
 *   and a secret input (a registry password), are ciphertext in the state file; the stack's
 *   outputs give them back, and the token's code given back works.
 * - A lookup's Output form takes a resource's output (getWorkspaceQuotaOutput of a workspace the
 *   same up creates) and answers once the workspace exists; an invite's workspaceId does too.
 *
 * Everything else about Workspace, WorkspaceInvite, ApiToken, RegistryCredential and SshKey (creates, in-place changes, replacements, drift,
 * refusals, adoption, lost answers, deletion, the quota and topology lookups), on both faces:
 * tests/inprocess/{workspace,workspaceInvite,apiToken,sshKey,registryCredential}.test.ts.
 */
import { markedSecret, ref, secret, startE2E, type E2E } from "./harness";

jest.setTimeout(300_000);

describe("Access resources through the real pulumi engine", () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E("access");
    const accounts = { "registry.example.com": { deploy: "s3cret-token" } };
    expect((await e2e.emu.control.post("/_emulator/settings", { registryAccounts: accounts })).status).toBe(200);
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("keeps secret outputs out of the state file, gives them back as stack outputs, and passes a resource's output to a lookup", async () => {
    const wid = e2e.emu.workspaceId;
    const result = await e2e.up([
      { type: "Workspace", name: "ws", args: { name: "e2e-team-a" } },
      {
        type: "WorkspaceInvite",
        name: "invite",
        args: { workspaceId: ref("ws.id"), email: "first.member@example.com", accessLevel: "VIEWER" },
      },
      { type: "ApiToken", name: "token", args: { name: "ci-deploy", expiresInDays: 30, grants: { WORKSPACE: "READ" } } },
      {
        type: "RegistryCredential",
        name: "reg",
        args: { registry: "https://Registry.Example.com/v2/", username: "deploy", password: secret("s3cret-token") },
      },
      { lookup: "getWorkspaceQuotaOutput", name: "wsQuota", args: { workspaceId: ref("ws.id") } },
    ]);
    expect(result.summary.resourceChanges).toEqual({ create: 5 });
    const wsId = await e2e.idOf("ws");
    expect((await e2e.outputsOf("invite")).workspaceId).toBe(wsId);

    // Recorded secret, and only ciphertext in the file: the codes came from the API's answers, not from a secret input.
    const raw = await e2e.rawState();
    const exported = (await e2e.stack.outputs()) as Record<string, { value: Record<string, unknown>; secret: boolean }>;
    for (const name of ["token", "invite"]) {
      expect(markedSecret((await e2e.outputsOf(name)).code)).toBe(true);
      const code = String(exported[name].value.code);
      expect(code).toMatch(/^\w{16,}$/);
      expect(raw).not.toContain(code);
    }
    expect(markedSecret((await e2e.outputsOf("reg")).password)).toBe(true);
    expect(raw).not.toContain("s3cret-token");
    expect(raw).toContain("registry.example.com");
    // The code the stack gives back is the token's.
    expect((await e2e.emu.api.as(String(exported.token.value.code)).get(`/v1/workspaces/${wid}`)).status).toBe(200);

    // The Output form ran with the workspace's id once it was known.
    expect(exported.wsQuota.value.maxSshKeys).toBe((await e2e.emu.api.get(`/v1/workspaces/${wsId}/quota`)).body.max_ssh_keys);
  });
});
