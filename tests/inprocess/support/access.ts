/**
 * What the access kinds' in-process files share
 * (tests/inprocess/{workspace,workspaceInvite,apiToken,sshKey,registryCredential}.test.ts): one
 * emulator's recorded state and requests, the declarations the cases change (a workspace, an
 * invite, workspace and resource tokens, an SSH key, a registry credential), the registry accounts
 * the emulator accepts, `setup()`: those accounts, and the instance a resource token reaches, and
 * `workspacesLeft()`, a file's last check: that instance deleted, nothing left but workspaces.
 */
import {
  CallError,
  opened,
  secret,
  type InProcess,
  type Props,
  type Recorded,
  lastSeqOf,
  requestsSince,
  type Logged,
  upRecorded,
  mutationsSince,
} from "../../support/inProcess";
import { ed25519 } from "../../support/sshKeys";

export const KEY_1 = ed25519(1, "alice@laptop");
export const KEY_2 = ed25519(2, "legacy@host");
export const KEY_3 = ed25519(3, "dropped@host");
export const KEY_4 = ed25519(4, "over-quota@host");

const ACCOUNTS = {
  "registry.example.com": { deploy: "s3cret-token", "ci-bot": "n3w-token" },
  "ghcr.io": { "octo-bot": "ghp_emulatorToken", "octo-ci": "ghp_second" },
  "registry.internal:5000": { robot: "r0bot-pass" },
  "registry.other.io": { dropper: "dr0p-pass" },
};

export const DAY_MS = 86_400_000;

/**
 * One emulator's state and declarations for the access kinds; `setup()` in the file's beforeAll.
 * `kinds`: those the file declares, which `declared()` and `expectAllSame()` cover.
 */
export function accessHarness(ctx: () => InProcess, kinds: string[] = []) {
  /** The default workspace, the instance a RESOURCE-subject token reaches, and the token's user. */
  const env = { wid: "", vmId: "", demoUserId: "" };
  const state: Record<string, Recorded> = {};
  const face = () => ctx().face;
  const api = () => ctx().emu.api;
  const get = async (path: string) => (await api().get(path)).body;
  const withToken = (code: unknown) => api().as(String(code));
  const lastSeq = () => lastSeqOf(ctx().emu);
  const requests = async (since: number) => (await requestsSince(ctx().emu, since)).filter((r) => r.path.startsWith("/v1/"));
  const mutations = (since: number) => mutationsSince(ctx().emu, since);
  const lines = (logged: Logged[]) => logged.map((r) => `${r.method} ${r.path}`);
  const upLogged = (name: string, kind: string, declared: Props) => upRecorded(ctx(), state, name, kind, declared);
  /**
   * An up expected to fail: the error the engine receives. A call that went part way keeps its
   * object (`kept`), which the engine records with the new inputs (as a partial failure).
   */
  const upFails = async (name: string, kind: string, declared: Props) => {
    const err = (await upLogged(name, kind, declared).catch((e: unknown) => e)) as CallError;
    expect(err).toBeInstanceOf(CallError);
    if (err.kept) {
      const inputs = opened((await face().check(kind, declared, state[name]?.inputs)).inputs).value as Props;
      state[name] = { id: err.kept.id, inputs, outs: err.kept.properties };
    }
    return err;
  };
  const outs = (name: string) => opened(state[name].outs).value as Props;
  const secretsOf = (name: string) => opened(state[name].outs).secrets;
  /** What the plugin marks secret in a kind's outputs; the dynamic host answers plain values (the generated class names them). */
  const secretOn = (...names: string[]) => (face().name === "plugin" ? names : []);
  /** A program's secret input: the engine sends it as a secret to the plugin; the dynamic host takes plain values only. */
  const secretIn = (value: string) => (face().name === "plugin" ? secret(value) : value);
  /** A read as a refresh makes it, recorded as the engine records it (the plugin's inputs too); gone when it answers no id. */
  const refresh = async (name: string, kind: string): ReturnType<InProcess["face"]["read"]> => {
    const read = await face().read(kind, state[name].id, state[name].outs, state[name].inputs);
    if (read.id) state[name] = { ...state[name], outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
    else delete state[name];
    return read;
  };
  const emulatorNow = async () => Date.parse((await ctx().emu.control.get("/_emulator/clock")).body.now);

  // The declaration, changed case by case.
  const ws: Props = { name: "e2e-team-a" };
  const invite: Props = { email: "First.Member@Example.com", accessLevel: "VIEWER" };
  const token: Props = { name: "ci-deploy", expiresInDays: 30, grants: { WORKSPACE: "READ", INSTANCE: "WRITE", DISK: "NONE" } };
  const rtoken: Props = { name: "vm-agent", expiresInDays: 60, grants: { INSTANCE: "READ" }, subject: "RESOURCE" };
  const key: Props = { name: "alice-key", publicKey: KEY_1 };
  const reg: Props = { registry: "https://Registry.Example.com/v2/", username: "deploy" };
  const extra: Record<string, [kind: string, declared: Props]> = {};
  /** The file's declarations: those of its kinds. */
  const declared = (): Array<[name: string, kind: string, declared: Props]> => {
    const all: Array<[string, string, Props]> = [
      ["ws", "Workspace", ws],
      ["invite", "WorkspaceInvite", invite],
      ["token", "ApiToken", token],
      ["rtoken", "ApiToken", rtoken],
      ["key", "SshKey", key],
      ["reg", "RegistryCredential", reg],
      ...Object.entries(extra).map(([name, [kind, d]]) => [name, kind, d] as [string, string, Props]),
    ];
    return all.filter(([, kind]) => kinds.includes(kind));
  };
  /** Every declaration's up changes nothing and sends nothing: the engine's clean preview. */
  const expectAllSame = async () => {
    for (const [name, kind, d] of declared()) {
      const { step, mutations: sent } = await upLogged(name, kind, d);
      expect({ name, step, sent }).toEqual({ name, step: "same", sent: [] });
    }
  };

  /** The registry accounts the emulator accepts, the token's user, and the instance a RESOURCE-subject token reaches. */
  async function setup() {
    env.wid = ctx().emu.workspaceId;
    expect((await ctx().emu.control.post("/_emulator/settings", { registryAccounts: ACCOUNTS })).status).toBe(200);
    env.demoUserId = (await api().get("/v1/users/@me")).body.id;
    // An instance for a RESOURCE-subject token and the topology lookup.
    const plans = (await api().get("/v1/plans", { name: "lightning-1" })).body.items as Array<{ id: string; name: string }>;
    const vm = await api().post(`/v1/workspaces/${env.wid}/instances`, {
      type: "PLAN",
      name: "agent-vm",
      region: "NA_01",
      plan: BigInt(plans.find((p) => p.name === "lightning-1")!.id),
    });
    expect(vm.status).toBe(202);
    env.vmId = String(vm.body.resource.id);
    await ctx().emu.waitFor(`/v1/instances/${env.vmId}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
    rtoken.subjectId = env.vmId;
    reg.password = secretIn("s3cret-token");
  }

  /**
   * The end of a file: the instance setup() made deleted through the API, the tables named empty,
   * and nothing left but workspaces (the API has no delete for them): their names, sorted.
   */
  async function workspacesLeft(tables: string[]) {
    const deleted = await api().delete(`/v1/instances/${env.vmId}`);
    await ctx().emu.waitWorkflow(deleted.body.id, 10_000);
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { total: number; resources: Record<string, unknown[]> };
    for (const table of tables) expect({ table, rows: inventory.resources[table] ?? [] }).toEqual({ table, rows: [] });
    const workspaces = (inventory.resources.workspaces ?? []) as Array<{ name: string }>;
    expect(inventory.total).toBe(workspaces.length);
    return workspaces.map((w) => w.name).sort();
  }

  return {
    env,
    state,
    face,
    api,
    get,
    withToken,
    lastSeq,
    requests,
    mutations,
    lines,
    upLogged,
    upFails,
    outs,
    secretsOf,
    secretOn,
    secretIn,
    refresh,
    emulatorNow,
    ws,
    invite,
    token,
    rtoken,
    key,
    reg,
    extra,
    declared,
    expectAllSame,
    setup,
    workspacesLeft,
  };
}
