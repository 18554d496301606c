/**
 * Autonaming on both faces, in process (tests/support/inProcess.ts): a resource declared without a
 * name is named from its logical name (the plugin from the engine's seed and Check, the dynamic
 * face from what its class carries), keeps that name across ups, and its replacement is named
 * anew, as the engine checks it again with no recorded inputs, and created first;
 * `pulumi:autonaming`'s proposed, enforced and disabled names reach check as the engine sends them.
 * A kind with unique names (K3sService) is k3sService.test.ts's. The rules as tables are
 * tests/unit/provider/autoname.test.ts; that the engine sends what the stack config asks and
 * re-checks a replacement is conformance.ts's.
 */
import { createHash } from "node:crypto";
import { defaultName, type Naming } from "../../provider/lifecycle/autoname";
import { setProgressSink } from "../../provider/runtime/progress";
import { describeEachFace, lastSeqOf, mutationsSince, up, type Props, type Recorded } from "../support/inProcess";

setProgressSink(() => undefined);

describeEachFace("Autonaming", (ctx) => {
  const state: Record<string, Recorded> = {};
  const net: Props = { description: "autonamed", range: "10.30.0.0/16" };
  const upLogged = async (name: string, declared: Props, naming: Naming = { logicalName: name }) => {
    const since = await lastSeqOf(ctx().emu);
    const result = await up(ctx().face, "Vpc", declared, state[name], naming);
    state[name] = result.now;
    return { ...result, mutations: await mutationsSince(ctx().emu, since) };
  };
  const apiName = async (id: string) => (await ctx().emu.api.get(`/v1/vpcs/${id}`)).body.name as string;

  it("names a VPC declared without a name from its logical name and a suffix, and keeps it across ups", async () => {
    const { step, now } = await upLogged("net", net);
    expect(step).toBe("create");
    const name = now.outs.name as string;
    expect(name).toMatch(/^net-[0-9a-f]{7}$/);
    expect(await apiName(now.id)).toBe(name);
    const again = await upLogged("net", net);
    expect({ step: again.step, mutations: again.mutations, name: again.now.inputs.name }).toEqual({ step: "same", mutations: [], name });
  });

  it("the plugin makes the name from the engine's seed: the same in every check of one run", async () => {
    const seed = Buffer.alloc(32, 3);
    const names = await Promise.all(
      [1, 2].map(async () => (await ctx().face.check("Vpc", net, {}, { logicalName: "db", seed })).inputs.name),
    );
    if (ctx().face.name === "plugin")
      expect(names).toEqual([0, 1].map(() => defaultName("db", 32, createHash("sha256").update(seed).digest())));
    // The dynamic face gets no seed from its host: a name of its own each time, kept once recorded.
    else expect(names[0]).not.toBe(names[1]);
  });

  it("replaces it under a name of its own, created before the old one is deleted", async () => {
    const old = state.net;
    const { step, diff, now, mutations } = await upLogged("net", { ...net, range: "10.31.0.0/16" });
    expect({ step, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({ step: "replace", deleteBeforeReplace: false });
    expect(now.outs.name).toMatch(/^net-[0-9a-f]{7}$/);
    expect(now.outs.name).not.toBe(old.outs.name);
    expect(mutations.map((m) => `${m.method} ${m.path}`)).toEqual([
      `POST /v1/workspaces/${ctx().emu.workspaceId}/vpcs`,
      `DELETE /v1/vpcs/${old.id}`,
    ]);
  });

  it("a name declared later renames it in place", async () => {
    const { step, mutations } = await upLogged("net", { ...net, range: "10.31.0.0/16", name: "net-declared" });
    expect({ step, writes: mutations.map((m) => [m.method, m.body]) }).toEqual({
      step: "update",
      writes: [["PATCH", { name: "net-declared" }]],
    });
  });

  it("takes the name pulumi:autonaming proposes or enforces", async () => {
    const proposed = await upLogged("web", net, {
      logicalName: "web",
      asked: { mode: "propose", name: "dev-web-1a2b", fresh: true },
    });
    expect(await apiName(proposed.now.id)).toBe("dev-web-1a2b");
    const enforced = await upLogged("verbatim", net, {
      logicalName: "verbatim",
      asked: { mode: "enforce", name: "verbatim", fresh: false },
    });
    expect(await apiName(enforced.now.id)).toBe("verbatim");
  });

  it("refuses at preview a name that breaks the kind's rule, and a missing name where autonaming is disabled", async () => {
    const since = await lastSeqOf(ctx().emu);
    const short = await ctx().face.check("Vpc", net, {}, { logicalName: "db", asked: { mode: "enforce", name: "db", fresh: false } });
    expect(short.failures).toEqual([
      {
        property: "name",
        reason: 'the name pulumi:autonaming made, "db", breaks this kind\'s rule: must be 4 to 32 characters (spec part 3, VPCs)',
      },
    ]);
    const disabled = await ctx().face.check("Vpc", net, {}, { logicalName: "db", asked: { mode: "disable" } });
    expect(disabled.failures).toEqual([{ property: "name", reason: expect.stringContaining('mode "disabled" makes none: declare name') }]);
    expect(await mutationsSince(ctx().emu, since)).toEqual([]);
  });
});
