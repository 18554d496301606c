/**
 * NetLoadBalancer on both faces, in process (tests/support/inProcess.ts), with the operator token
 * (creating and deleting one is Administrator-only; tests/inprocess/support/network.ts): created
 * with the address as the API writes it, patched in place (name and address; its owner moved to
 * the private cloud and back, the PATCH then going through its owner's route), drift read and put
 * back under the same id, deleted outside Pulumi read as gone, a lost create answer recovered
 * without a duplicate, adopted by adoptId, and deleted. Its members are
 * netLoadBalancerMember.test.ts's. The refusals at preview are tests/unit/resources/netLoadBalancer.test.ts.
 */
import { describeEachFace, type Logged, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "NetLoadBalancer (operator token)",
  (ctx) => {
    const {
      env,
      state,
      api,
      staff,
      get,
      calls,
      lines,
      upLogged,
      expectSame,
      outs,
      refresh,
      createDespiteLostAnswer,
      adopt,
      makeBalancer,
      inventory,
      deleteAll,
      setup,
      removeFixtures,
    } = networkHarness(ctx);
    const lb: Props = { name: "web-lb", address: "203.0.113.80" };
    const lb2: Props = { name: "moving-lb", address: "2001:DB8:0:0::50" };
    const declared = () =>
      [
        ["lb", "NetLoadBalancer", lb],
        ["lb2", "NetLoadBalancer", lb2],
      ] as const;

    beforeAll(setup);

    it("creates balancers with the operator token, the address as the API writes it", async () => {
      for (const [name, kind, d] of declared())
        expect({ name, step: (await upLogged(name, kind, d)).step }).toEqual({ name, step: "create" });
      expect(await get(`/v1/net-lbs/${state.lb.id}`)).toMatchObject({ name: "web-lb", address: "203.0.113.80", owner: { id: env.ws } });
      expect((await get(`/v1/net-lbs/${state.lb2.id}`)).address).toBe("2001:db8::50");
      expect(outs("lb2").address).toBe("2001:db8::50");
    });

    it("diffs the same declarations as no change and sends no mutating request", async () => {
      await expectSame(declared());
    });

    it("patches balancers in place: name and address, and the owner moved to the private cloud", async () => {
      Object.assign(lb, { name: "web-lb-2", address: "203.0.113.81" });
      lb2.ownerWorkspaceId = env.pc;
      const logged: Logged[] = [];
      for (const [name, kind, d] of declared()) {
        const before = state[name].id;
        const { step, now, mutations: made } = await upLogged(name, kind, d);
        expect({ name, step, id: now.id }).toEqual({ name, step: "update", id: before });
        logged.push(...made);
      }
      expect(lines(logged)).toEqual([
        `PATCH /v1/workspaces/${env.ws}/net-lbs/${state.lb.id}`,
        `PATCH /v1/workspaces/${env.ws}/net-lbs/${state.lb2.id}`,
      ]);
      expect(calls(logged, `/v1/workspaces/${env.ws}/net-lbs/${state.lb.id}`)[0].body).toEqual({
        name: "web-lb-2",
        address: "203.0.113.81",
      });
      expect(calls(logged, `/v1/workspaces/${env.ws}/net-lbs/${state.lb2.id}`)[0].body).toEqual({ owner: env.pc });
      expect((await get(`/v1/net-lbs/${state.lb2.id}`)).owner.id).toBe(env.pc);
      expect(outs("lb2")).toMatchObject({ ownerWorkspaceId: env.pc });
    });

    it("moves a balancer back through its owner's route", async () => {
      lb2.ownerWorkspaceId = env.ws;
      // The balancer is in the private cloud: its PATCH goes through its owner's route then.
      const { mutations: made } = await upLogged("lb2", "NetLoadBalancer", lb2);
      expect(made).toEqual([
        expect.objectContaining({ method: "PATCH", path: `/v1/workspaces/${env.pc}/net-lbs/${state.lb2.id}`, body: { owner: env.ws } }),
      ]);
      expect((await get(`/v1/net-lbs/${state.lb2.id}`)).owner.id).toBe(env.ws);
      await expectSame([["lb2", "NetLoadBalancer", lb2]]);
    });

    it("a read finds an out-of-band rename; the next up puts the declaration back under the same id", async () => {
      const id = state.lb.id;
      expect((await api().patch(`/v1/workspaces/${env.ws}/net-lbs/${id}`, { name: "renamed-by-hand" })).status).toBe(200);
      await refresh("lb", "NetLoadBalancer");
      expect(outs("lb").name).toBe("renamed-by-hand");
      const { step, now } = await upLogged("lb", "NetLoadBalancer", lb);
      expect({ step, id: now.id }).toEqual({ step: "update", id });
      expect((await get(`/v1/net-lbs/${id}`)).name).toBe("web-lb-2");
    });

    it("a read of a balancer deleted outside Pulumi answers no id; the other still reads", async () => {
      const lb2Id = state.lb2.id;
      expect((await staff().delete(`/v1/net-lbs/${state.lb.id}`)).status).toBe(202);
      expect((await refresh("lb", "NetLoadBalancer")).id).toBe("");
      expect((await refresh("lb2", "NetLoadBalancer")).id).toBe(lb2Id);
      expect(Object.keys(state)).toEqual(["lb2"]);
    });

    it("recreates it even when the create answer is lost: found and adopted, not duplicated", async () => {
      const logged = await createDespiteLostAnswer("POST", "/v1/net-lbs", "lb", "NetLoadBalancer", lb);
      // Recovered by looking it up, not by sending again.
      expect(calls(logged, "/v1/net-lbs")).toHaveLength(1);
      expect((await get(`/v1/workspaces/${env.ws}/net-lbs`, { name: "web-lb-2" })).items.map((l: { id: string }) => l.id)).toEqual([
        state.lb.id,
      ]);
      expect((await inventory()).resources.netLbs).toHaveLength(2);
      await expectSame(declared());
    });

    it("adopts an existing balancer by adoptId and converges its name, creating nothing", async () => {
      const legacy = await makeBalancer("legacy-lb", "203.0.113.90");
      const adopted = { name: "legacy-lb-managed", address: "203.0.113.90", adoptId: legacy };
      await adopt("lbAdopted", "NetLoadBalancer", adopted);
      expect(state.lbAdopted.id).toBe(legacy);
      expect((await get(`/v1/net-lbs/${legacy}`)).name).toBe("legacy-lb-managed");
      await expectSame([...declared(), ["lbAdopted", "NetLoadBalancer", adopted]]);
    });

    it("deletes everything it made, leaving the inventory empty", async () => {
      await deleteAll([
        ["lbAdopted", "NetLoadBalancer"],
        ["lb", "NetLoadBalancer"],
        ["lb2", "NetLoadBalancer"],
      ]);
      await removeFixtures(["netLbs"]);
    });
  },
  { staff: true },
);
