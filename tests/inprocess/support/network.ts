/**
 * What the network kinds' in-process files share
 * (tests/inprocess/{vpcAttachment,floatingIp,floatingIpAttachment,netLoadBalancer,netLoadBalancerMember,bgpConfig,bgpPrefix}.test.ts):
 * one emulator's recorded state and requests, and `setup()`: the workspace, the operator's private
 * cloud, two running instances and two VPCs, made through the API; each file's last case deletes
 * what it made, then `removeFixtures()` leaves the inventory empty. The files run with the
 * operator (staff) token: creating and deleting load balancers is Administrator-only, and the
 * emulator treats the operator as OWNER in every workspace.
 */
import type { TestEmulator } from "pulumi-svc-emulator/testing";
import {
  CallError,
  opened,
  type InProcess,
  type Props,
  type Recorded,
  lastSeqOf,
  requestsSince,
  type Logged,
  upRecorded,
  mutationsSince,
} from "../../support/inProcess";

/** The operator's private cloud: another workspace, with a node of its own. */
export async function privateCloudOf(emu: TestEmulator): Promise<string> {
  const listed = (await emu.staff.get("/v1/workspaces", { name: "private-cloud" })).body.items as Array<{ id: string; name: string }>;
  return listed.find((w) => w.name === "private-cloud")!.id;
}

/** One emulator's state and requests for the network kinds; `setup()` in the file's beforeAll. */
export function networkHarness(ctx: () => InProcess) {
  /** The workspace, the private cloud, the instances net-vm-1 and net-vm-2, the VPCs net-one and net-two. */
  const env = { ws: "", pc: "", vm1: "", vm2: "", net: "", net2: "" };
  const state: Record<string, Recorded> = {};
  const face = () => ctx().face;
  const api = () => ctx().emu.api;
  const staff = () => ctx().emu.staff;
  const get = async (path: string, query?: Record<string, string | number>) => (await staff().get(path, query)).body;
  const status = async (path: string) => (await staff().get(path)).status;
  const lastSeq = () => lastSeqOf(ctx().emu);
  const requests = async (since: number) => (await requestsSince(ctx().emu, since)).filter((r) => r.path.startsWith("/v1/"));
  const mutations = (since: number) => mutationsSince(ctx().emu, since);
  const calls = (logged: Logged[], path: string | RegExp) =>
    logged.filter((m) => (typeof path === "string" ? m.path === path : path.test(m.path)));
  const lines = (logged: Logged[]) => logged.map((m) => `${m.method} ${m.path}`);
  const upLogged = (name: string, kind: string, declared: Props) => upRecorded(ctx(), state, name, kind, declared);
  /** An up expected to fail: the error the engine receives. */
  const upFails = async (name: string, kind: string, declared: Props) => {
    const err = (await upLogged(name, kind, declared).catch((e: unknown) => e)) as CallError;
    expect(err).toBeInstanceOf(CallError);
    return err;
  };
  /** Each declaration's up changes nothing and sends nothing: the engine's clean preview. */
  const expectSame = async (declared: ReadonlyArray<readonly [name: string, kind: string, declared: Props]>) => {
    for (const [name, kind, d] of declared) {
      const { step, mutations: made } = await upLogged(name, kind, d);
      expect({ name, step, made }).toEqual({ name, step: "same", made: [] });
    }
  };
  /** check refuses the declaration, naming the property and the rule, before any API request. */
  const expectRefusedAtCheck = async (kind: string, declared: Props, property: string, reason: RegExp) => {
    const since = await lastSeq();
    const { failures } = await face().check(kind, declared);
    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(await requests(since)).toEqual([]);
  };
  /** The recorded outputs with secrets opened, and which of them were marked secret. */
  const outs = (name: string) => opened(state[name].outs).value as Props;
  const secretsOf = (name: string) => opened(state[name].outs).secrets;
  /** A read as a refresh makes it, recorded as the engine records it (the plugin's inputs too); gone when it answers no id. */
  const refresh = async (name: string, kind: string): ReturnType<InProcess["face"]["read"]> => {
    const read = await face().read(kind, state[name].id, state[name].outs, state[name].inputs);
    if (read.id) state[name] = { ...state[name], outs: read.outs, ...(read.inputs ? { inputs: read.inputs } : {}) };
    else delete state[name];
    return read;
  };
  /**
   * An up whose create request (`method` on `path`, `*` any one segment) has its answer lost after
   * the API acted: a create all the same, the one lost answer logged with status 0. The mutating
   * requests it made.
   */
  const createDespiteLostAnswer = async (method: string, path: string, name: string, kind: string, declared: Props) => {
    expect((await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method, path, times: 1 })).status).toBe(201);
    const since = await lastSeq();
    expect((await upLogged(name, kind, declared)).step).toBe("create");
    const logged = await mutations(since);
    expect(logged.filter((m) => m.status === 0)).toHaveLength(1);
    return logged;
  };
  /** An adoption by adoptId: a create for the engine, no POST that makes anything. The mutating requests it made. */
  const adopt = async (name: string, kind: string, declared: Props) => {
    const since = await lastSeq();
    expect((await upLogged(name, kind, declared)).step).toBe("create");
    const logged = await mutations(since);
    expect(logged.filter((m) => m.method === "POST" && !m.path.startsWith("/v1/commands/"))).toEqual([]);
    return logged;
  };
  /** A floating IP allocated through the API, in the workspace. */
  const allocateIp = async (family: "IPv4" | "IPv6") => {
    const made = await api().post(`/v1/workspaces/${env.ws}/ips`, { family });
    expect(made.status).toBe(201);
    return { id: String(made.body.id), address: made.body.address as string };
  };
  /** A load balancer made through the API with the operator token, in the workspace: its id. */
  const makeBalancer = async (name: string, address: string) => {
    const made = await staff().post(`/v1/net-lbs`, { name, address, owner: BigInt(env.ws) });
    expect(made.status).toBe(201);
    return String(made.body.id);
  };
  const inventory = async () =>
    (await ctx().emu.control.get("/_emulator/inventory")).body as { total: number; resources: Record<string, Array<{ name: string }>> };

  /** The workspace, the private cloud, two running instances and two VPCs, made through the API. */
  async function setup() {
    env.ws = ctx().emu.workspaceId;
    env.pc = await privateCloudOf(ctx().emu);
    const plans = (await api().get("/v1/plans", { name: "lightning-1" })).body.items as Array<{ id: string; name: string }>;
    const plan = BigInt(plans.find((p) => p.name === "lightning-1")!.id);
    for (const [key, name] of [
      ["vm1", "net-vm-1"],
      ["vm2", "net-vm-2"],
    ] as const) {
      const made = await api().post(`/v1/workspaces/${env.ws}/instances`, { type: "PLAN", name, region: "NA_01", plan });
      expect(made.status).toBe(202);
      env[key] = String(made.body.resource.id);
      await ctx().emu.waitFor(`/v1/instances/${env[key]}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
    }
    for (const [key, net] of [
      ["net", { name: "net-one", description: "first", range: "10.30.0.0/16" }],
      ["net2", { name: "net-two", description: "second", range: "10.31.0.0/16" }],
    ] as const) {
      const made = await api().post(`/v1/workspaces/${env.ws}/vpcs`, net);
      expect(made.status).toBe(201);
      env[key] = String(made.body.id);
    }
  }

  /** Deletes what the file made, in the order given: dependents first, as the engine destroys. */
  async function deleteAll(order: ReadonlyArray<readonly [name: string, kind: string]>) {
    for (const [name, kind] of order) {
      await face().delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    expect(state).toEqual({});
  }

  /** The instances and VPCs setup() made, deleted through the API: the tables named are empty, and so is the inventory. */
  async function removeFixtures(tables: string[]) {
    for (const vm of [env.vm1, env.vm2]) await ctx().emu.waitWorkflow((await api().delete(`/v1/instances/${vm}`)).body.id, 10_000);
    for (const net of [env.net, env.net2]) expect((await api().delete(`/v1/vpcs/${net}`)).status).toBe(200);
    const { total, resources } = await inventory();
    for (const table of tables) expect({ table, rows: resources[table] ?? [] }).toEqual({ table, rows: [] });
    expect(total).toBe(0);
  }

  return {
    env,
    state,
    face,
    api,
    staff,
    get,
    status,
    lastSeq,
    mutations,
    calls,
    lines,
    upLogged,
    upFails,
    expectSame,
    expectRefusedAtCheck,
    outs,
    secretsOf,
    refresh,
    createDespiteLostAnswer,
    adopt,
    allocateIp,
    makeBalancer,
    inventory,
    setup,
    deleteAll,
    removeFixtures,
  };
}
