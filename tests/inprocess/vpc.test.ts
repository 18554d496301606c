/**
 * Vpc on both faces, in process (tests/support/inProcess.ts): create with the range normalised, no
 * change for the same declaration, rename in place in one PATCH, replace on a new range, drift read
 * and put back under the same id, deletion read as gone, adoption by adoptId (and its refusal
 * when a creation-only field differs), and recovery from a create whose answer was lost.
 * A public range refused at preview, naming the rule; the other refusals and each field's effect
 * at preview are tests/unit/resources/vpc.test.ts. The engine's own part (a refresh
 * records read's inputs, so the next preview shows drift per property) stays in tests/e2e/vpc.test.ts.
 */
import { setProgressSink } from "../../provider/runtime/progress";
import { CallError, describeEachFace, up, type Props, type Recorded, lastSeqOf, mutationsSince } from "../support/inProcess";

// Progress lines (notices such as a recovered create) are collected, not printed: both faces write them here.
const progress: string[] = [];
setProgressSink((line) => progress.push(line));

describeEachFace("Vpc", (ctx) => {
  const state: Record<string, Recorded> = {};
  const api = () => ctx().emu.api;
  const wid = () => ctx().emu.workspaceId;
  const lastSeq = () => lastSeqOf(ctx().emu);
  const mutations = (since: number) => mutationsSince(ctx().emu, since);
  const upLogged = async (name: string, declared: Props) => {
    const since = await lastSeq();
    const result = await up(ctx().face, "Vpc", declared, state[name]);
    state[name] = result.now;
    return { ...result, mutations: await mutations(since) };
  };

  const net: Props = { name: "app-net", description: "app tier", range: "10.20.3.4/16" };

  it("creates a VPC with the range normalised and a VLAN tag; its id above 2^53 stays exact", async () => {
    const { step, now } = await upLogged("net", net);
    expect(step).toBe("create");
    expect(now.outs).toMatchObject({ name: "app-net", range: "10.20.0.0/16", workspaceId: wid() });
    expect(typeof now.outs.vlan).toBe("number");
    expect(BigInt(now.id)).toBeGreaterThan(2n ** 53n);
    expect((await api().get(`/v1/vpcs/${now.id}`)).body).toMatchObject({ id: now.id, name: "app-net", range: "10.20.0.0/16" });
  });

  it("diffs the same declaration as no change and sends no mutating request", async () => {
    const { step, mutations } = await upLogged("net", net);
    expect({ step, mutations }).toEqual({ step: "same", mutations: [] });
  });

  // tests/unit/resources/vpc.test.ts proves a public range fails on `range`; the rule it names is proven here.
  it("refuses a public range at preview, naming the property and the rule, before any API request", async () => {
    const since = await lastSeq();
    const { failures } = await ctx().face.check("Vpc", { ...net, range: "8.8.8.0/24" }, state.net.inputs);
    expect(failures).toEqual([{ property: "range", reason: expect.stringMatching(/RFC 1918/) }]);
    expect((await ctx().emu.control.get(`/_emulator/requests?since=${since}`)).body.requests).toEqual([]);
  });

  it("renames in place (same id), in one PATCH of the changed fields", async () => {
    const id = state.net.id;
    Object.assign(net, { name: "app-net-2", description: "renamed" });
    const { step, now, mutations } = await upLogged("net", net);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(mutations.map((m) => [`${m.method} ${m.path}`, m.body])).toEqual([
      [`PATCH /v1/vpcs/${id}`, { name: "app-net-2", description: "renamed" }],
    ]);
    expect((await api().get(`/v1/vpcs/${id}`)).body).toMatchObject({ name: "app-net-2", description: "renamed" });
  });

  it("replaces the VPC when its range changes: the new one made first, then the old one deleted", async () => {
    const before = state.net.id;
    net.range = "192.168.7.0/24";
    const { step, diff, now, mutations } = await upLogged("net", net);
    expect({ step, replaces: diff?.replaces, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({
      step: "replace",
      replaces: ["range"],
      deleteBeforeReplace: false,
    });
    expect(now.id).not.toBe(before);
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`POST /v1/workspaces/${wid()}/vpcs`, `DELETE /v1/vpcs/${before}`]);
    expect((await api().get(`/v1/vpcs/${before}`)).status).toBe(404);
    expect(now.outs.range).toBe("192.168.7.0/24");
  });

  it("a read finds an out-of-band rename (in the outputs and the inputs it answers); the next up puts it back under the same id", async () => {
    const id = state.net.id;
    await api().patch(`/v1/vpcs/${id}`, { name: "changed-by-hand" });
    const read = await ctx().face.read("Vpc", id, state.net.outs, state.net.inputs);
    expect(read).toMatchObject({ id, outs: { name: "changed-by-hand" } });
    // Both faces answer the inputs as the API reports them (the dynamic host passes them on since
    // @pulumi/pulumi 3.216), so the next diff names the drifted property.
    expect(read.inputs).toMatchObject({ name: "changed-by-hand", description: "renamed", range: "192.168.7.0/24" });
    state.net = { ...state.net, outs: read.outs, inputs: read.inputs! };
    const { step, diff, now } = await upLogged("net", net);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    // Only the plugin answers a detailed diff; the dynamic host forwards none.
    expect(diff?.detailed).toEqual(ctx().face.name === "plugin" ? { name: "update" } : undefined);
    expect((await api().get(`/v1/vpcs/${id}`)).body.name).toBe("app-net-2");
  });

  it("a read of a VPC deleted outside Pulumi answers no id (the engine drops it); the next up makes a new one", async () => {
    const id = state.net.id;
    expect((await api().delete(`/v1/vpcs/${id}`)).status).toBe(200);
    expect((await ctx().face.read("Vpc", id, state.net.outs, state.net.inputs)).id).toBe("");
    delete state.net;
    const { step, now } = await upLogged("net", net);
    expect(step).toBe("create");
    expect(now.id).not.toBe(id);
  });

  it("adopts an existing VPC by adoptId and converges it to the declaration, creating nothing", async () => {
    const existing = await api().post(`/v1/workspaces/${wid()}/vpcs`, {
      name: "legacy-net",
      description: "made by hand",
      range: "172.16.0.0/20",
    });
    expect(existing.status).toBe(201);
    const { now, mutations } = await upLogged("legacy", {
      name: "legacy-net",
      description: "now managed",
      range: "172.16.0.0/20",
      adoptId: existing.body.id,
    });
    expect(now.id).toBe(existing.body.id);
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([`PATCH /v1/vpcs/${existing.body.id}`]);
    expect((await api().get(`/v1/vpcs/${existing.body.id}`)).body.description).toBe("now managed");
  });

  it("refuses to adopt when a field that can only be set at creation differs, naming it, and keeps nothing", async () => {
    const existing = await api().post(`/v1/workspaces/${wid()}/vpcs`, { name: "other-net", description: "x", range: "172.20.0.0/16" });
    const since = await lastSeq();
    const err = (await up(ctx().face, "Vpc", {
      name: "other-net",
      description: "x",
      range: "172.21.0.0/16",
      adoptId: existing.body.id,
    }).catch((e: unknown) => e)) as CallError;
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(/cannot adopt Vpc \d+: fields that can only be set at creation differ: range .*drop adoptId/);
    expect(err.kept).toBeUndefined();
    expect(await mutations(since)).toEqual([]);
    expect((await api().get(`/v1/vpcs/${existing.body.id}`)).body.range).toBe("172.20.0.0/16");
    await api().delete(`/v1/vpcs/${existing.body.id}`);
  });

  it("recovers from a create whose answer was lost: one POST, one VPC, found and recorded", async () => {
    await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/vpcs", times: 1 });
    const mark = progress.length;
    const { now, mutations } = await upLogged("dropped", { name: "dropped-net", description: "d", range: "10.99.0.0/16" });
    expect(mutations.filter((r) => r.method === "POST")).toHaveLength(1);
    const list = await api().get(`/v1/workspaces/${wid()}/vpcs`, { name: "dropped-net" });
    expect(list.body.items.map((v: { id: string }) => v.id)).toEqual([now.id]);
    expect(progress.slice(mark).join("\n")).toMatch(/the create answer was lost .*found the Vpc the API created \(id \d+\) and adopted it/);
  });

  it("deletes every VPC it recorded, leaving the inventory without VPCs", async () => {
    for (const name of Object.keys(state)) {
      await ctx().face.delete("Vpc", state[name].id, state[name].outs);
      delete state[name];
    }
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { resources: Record<string, unknown[]> };
    expect(inventory.resources.vpcs).toEqual([]);
  });
});
