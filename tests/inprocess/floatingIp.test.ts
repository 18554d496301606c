/**
 * FloatingIp on both faces, in process (tests/support/inProcess.ts), on the instances of
 * tests/inprocess/support/network.ts: created with the address the API allocated, replaced on
 * ddos and on family with an attachment following it in the engine's order (the new IP, then the
 * attachment naming it, then the old IP released, which it could not be while attached), released
 * outside Pulumi read as gone with its attachment, a lost create answer recovered without a second
 * address, adopted by adoptId, and deleted. The attachment's own cases are
 * floatingIpAttachment.test.ts. The refusals at preview are tests/unit/resources/floatingIp.test.ts;
 * the engine's order of dependents (dependsOn, deleteBeforeReplace) is tests/e2e/conformance.ts.
 */
import { describeEachFace, opened, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "FloatingIp, with an attachment following it",
  (ctx) => {
    const {
      env,
      state,
      face,
      api,
      get,
      status,
      calls,
      upLogged,
      expectSame,
      outs,
      refresh,
      createDespiteLostAnswer,
      adopt,
      allocateIp,
      deleteAll,
      setup,
      removeFixtures,
    } = networkHarness(ctx);
    const fip: Props = { family: "IPv4" };
    const fipAtt: Props = {};
    const adopted: Props = {};
    const declared = () =>
      [
        ["fip", "FloatingIp", fip],
        ["fipAtt", "FloatingIpAttachment", fipAtt],
      ] as const;

    /**
     * A replacement a dependent follows, in the engine's order: the new object first, then the
     * dependents (their inputs name the new id), and the old object's delete last, once nothing
     * uses it (a floating IP still attached cannot be released).
     */
    const replaceBeforeDependents = async (name: string, kind: string, declared: Props) => {
      const old = state[name];
      const checked = await face().check(kind, declared, old.inputs);
      const inputs = opened(checked.inputs).value as Props;
      const diff = await face().diff(kind, old.id, old.outs, inputs, old.inputs);
      expect({ changes: diff.changes, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        changes: true,
        deleteBeforeReplace: false,
      });
      const made = await face().create(kind, inputs);
      state[name] = { id: made.id, inputs, outs: made.outs };
      return { replaces: diff.replaces, deleteOld: () => face().delete(kind, old.id, old.outs) };
    };

    beforeAll(setup);

    it("creates a floating IP: the address the API allocated, in the workspace", async () => {
      expect((await upLogged("fip", "FloatingIp", fip)).step).toBe("create");
      const ip = await get(`/v1/ips/${state.fip.id}`);
      expect(ip).toMatchObject({ family: "IPv4", ddos: false, instance_id: null });
      expect(outs("fip")).toMatchObject({ family: "IPv4", ddos: false, address: ip.address, workspaceId: env.ws });
    });

    it("diffs the same declaration as no change and sends no mutating request", async () => {
      await expectSame([["fip", "FloatingIp", fip]]);
    });

    describe("replaces on a change of a replace field, its attachment following: new IP first, old one released last", () => {
      beforeAll(async () => {
        Object.assign(fipAtt, { ipId: state.fip.id, instanceId: env.vm2 });
        expect((await upLogged("fipAtt", "FloatingIpAttachment", fipAtt)).step).toBe("create");
      });

      const changes: Array<[field: string, change: Props, replaces: string[]]> = [
        ["ddos", { ddos: true }, ["ddos"]],
        ["family (and ddos)", { family: "IPv6", ddos: false }, ["ddos", "family"]],
      ];
      it.each(changes)("%s", async (_field, change, replaces) => {
        const old = state.fip.id;
        Object.assign(fip, change);
        // A new address takes the attachment with it: its ipId names the new IP.
        const ip = await replaceBeforeDependents("fip", "FloatingIp", fip);
        expect(ip.replaces.sort()).toEqual(replaces);
        fipAtt.ipId = state.fip.id;
        const fipAttUp = await upLogged("fipAtt", "FloatingIpAttachment", fipAtt);
        expect({ step: fipAttUp.step, replaces: fipAttUp.diff?.replaces }).toEqual({ step: "replace", replaces: ["ipId"] });
        await ip.deleteOld();
        expect(state.fip.id).not.toBe(old);
        expect(await status(`/v1/ips/${old}`)).toBe(404);
        expect(await get(`/v1/ips/${state.fip.id}`)).toMatchObject({ family: fip.family, ddos: fip.ddos, instance_id: env.vm2 });
        expect(state.fipAtt.id).toBe(state.fip.id);
      });
    });

    it("a read of a floating IP released outside Pulumi answers no id, nor does its attachment's", async () => {
      const fipId = state.fip.id;
      expect((await api().post(`/v1/commands/detach-ip`, { ip: BigInt(fipId) })).status).toBe(200);
      expect((await api().delete(`/v1/ips/${fipId}`)).status).toBe(204);
      for (const [name, kind] of declared()) expect({ name, id: (await refresh(name, kind)).id }).toEqual({ name, id: "" });
    });

    it("recreates it even when the create answer is lost: found and adopted, no second address allocated", async () => {
      const logged = await createDespiteLostAnswer("POST", "/v1/workspaces/*/ips", "fip", "FloatingIp", fip);
      // Recovered by looking it up, not by sending again.
      expect(calls(logged, `/v1/workspaces/${env.ws}/ips`)).toHaveLength(1);
      // In the engine's order: the attachment after the IP its inputs name.
      fipAtt.ipId = state.fip.id;
      expect((await upLogged("fipAtt", "FloatingIpAttachment", fipAtt)).step).toBe("create");
      // The instance's own address (made by its create) aside, vm2 holds one IPv6 address: no duplicate was allocated.
      const ips = (await get(`/v1/workspaces/${env.ws}/ips`, { family: "IPv6", limit: 100 })).items.filter(
        (ip: { instance_id: string | null; origin: string }) => ip.instance_id === env.vm2 && ip.origin !== "INSTANCE",
      );
      expect(ips.map((ip: { id: string }) => ip.id)).toEqual([state.fip.id]);
      expect(await get(`/v1/ips/${state.fip.id}`)).toMatchObject({ family: "IPv6", instance_id: env.vm2 });
      expect(state.fipAtt.id).toBe(state.fip.id);
      await expectSame(declared());
    });

    it("adopts an existing floating IP by adoptId, allocating nothing", async () => {
      const ip = await allocateIp("IPv4");
      Object.assign(adopted, { family: "IPv4", adoptId: ip.id });
      await adopt("fipAdopted", "FloatingIp", adopted);
      expect(state.fipAdopted.id).toBe(ip.id);
      expect(outs("fipAdopted")).toMatchObject({ family: "IPv4", address: ip.address });
      await expectSame([...declared(), ["fipAdopted", "FloatingIp", adopted]]);
    });

    it("deletes everything it made, dependents first, leaving the inventory empty", async () => {
      await deleteAll([
        ["fipAtt", "FloatingIpAttachment"],
        ["fipAdopted", "FloatingIp"],
        ["fip", "FloatingIp"],
      ]);
      await removeFixtures(["floatingIps"]);
    });
  },
  { staff: true },
);
