/**
 * NetLoadBalancerMember on both faces, in process (tests/support/inProcess.ts), on the instances of
 * tests/inprocess/support/network.ts and balancers made through the API: created with its
 * synthetic id (lb:instance) once the instance is listed ACTIVE, a bad balancer id refused at
 * check, replaced on either end (the new membership first), deleted outside Pulumi read as gone, a
 * lost join answer recovered (the PUT sent again), adopted by adoptId, a member whose join never
 * applied deleted (the next up creates it), and deleted. The balancers' own cases are
 * netLoadBalancer.test.ts. The other refusals at preview are tests/unit/resources/netLoadBalancerMember.test.ts.
 */
import { describeEachFace, opened, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "NetLoadBalancerMember",
  (ctx) => {
    const {
      env,
      state,
      api,
      staff,
      get,
      calls,
      upLogged,
      upFails,
      expectSame,
      expectRefusedAtCheck,
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
    /** The balancers, made through the API: the member's first and second, and the one an adopted member is in. */
    const lbs = { a: "", b: "", legacy: "" };
    const member: Props = {};
    const members = async (lbId: string) => ((await get(`/v1/net-lbs/${lbId}/instances`)).items as Array<{ id: string }>).map((m) => m.id);
    const waitMembers = (lbId: string, count: number) =>
      ctx().emu.waitFor(`/v1/workspaces/${env.ws}/net-lbs/${lbId}/instances`, (b: { items: unknown[] }) => b.items.length === count);

    beforeAll(async () => {
      await setup();
      lbs.a = await makeBalancer("web-lb", "203.0.113.80");
      lbs.b = await makeBalancer("moving-lb", "2001:db8::50");
      Object.assign(member, { loadBalancerId: lbs.a, instanceId: env.vm1 });
    });

    it("creates a member: id lb:instance, ACTIVE in the balancer", async () => {
      expect((await upLogged("member", "NetLoadBalancerMember", member)).step).toBe("create");
      expect(state.member.id).toBe(`${lbs.a}:${env.vm1}`);
      expect(outs("member")).toMatchObject({ state: "ACTIVE" });
      expect(await members(lbs.a)).toEqual([env.vm1]);
    });

    it("diffs the same declaration as no change and sends no mutating request", async () => {
      await expectSame([["member", "NetLoadBalancerMember", member]]);
    });

    // The other rows of the preview table are the kind's unit tests.
    it("check refuses a bad NetLoadBalancerMember id, naming the property and the rule, before any API request", async () => {
      await expectRefusedAtCheck(
        "NetLoadBalancerMember",
        { ...member, loadBalancerId: "lb" },
        "loadBalancerId",
        /must be the load balancer id/,
      );
    });

    it("replaces on a change of either end, the instance then the balancer: new id, the old membership gone, the new one made first", async () => {
      member.instanceId = env.vm2;
      const memberUp = await upLogged("member", "NetLoadBalancerMember", member);
      expect({ step: memberUp.step, replaces: memberUp.diff?.replaces, first: memberUp.diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["instanceId"],
        first: false,
      });
      expect(state.member.id).toBe(`${lbs.a}:${env.vm2}`);
      expect(await members(lbs.a)).toEqual([env.vm2]);

      member.loadBalancerId = lbs.b;
      expect((await upLogged("member", "NetLoadBalancerMember", member)).diff?.replaces).toEqual(["loadBalancerId"]);
      expect(state.member.id).toBe(`${lbs.b}:${env.vm2}`);
      expect(await members(lbs.a)).toEqual([]);
      expect(await members(lbs.b)).toEqual([env.vm2]);
    });

    it("a read of a member removed outside Pulumi answers no id", async () => {
      expect((await api().delete(`/v1/workspaces/${env.ws}/net-lbs/${lbs.b}/instances/${env.vm2}`)).status).toBe(202);
      await waitMembers(lbs.b, 0);
      expect((await refresh("member", "NetLoadBalancerMember")).id).toBe("");
      expect(state.member).toBeUndefined();
    });

    it("recreates it even when the join's answer is lost: the PUT, idempotent, sent again", async () => {
      const logged = await createDespiteLostAnswer(
        "PUT",
        "/v1/workspaces/*/net-lbs/*/instances/*",
        "member",
        "NetLoadBalancerMember",
        member,
      );
      // PUT is idempotent: the client sends it again.
      expect(calls(logged, `/v1/workspaces/${env.ws}/net-lbs/${lbs.b}/instances/${env.vm2}`).length).toBeGreaterThanOrEqual(1);
      expect(await members(lbs.b)).toEqual([env.vm2]);
      await expectSame([["member", "NetLoadBalancerMember", member]]);
    });

    it("adopts an existing member by adoptId, joining nothing", async () => {
      lbs.legacy = await makeBalancer("legacy-lb", "203.0.113.90");
      expect((await api().put(`/v1/workspaces/${env.ws}/net-lbs/${lbs.legacy}/instances/${env.vm1}`)).status).toBe(202);
      await waitMembers(lbs.legacy, 1);
      const adopted = { loadBalancerId: lbs.legacy, instanceId: env.vm1, adoptId: `${lbs.legacy}:${env.vm1}` };
      const logged = await adopt("memberAdopted", "NetLoadBalancerMember", adopted);
      // Nothing was joined either: no PUT of a member.
      expect(logged.filter((m) => m.method === "PUT" && m.path.includes("/net-lbs/"))).toEqual([]);
      expect(state.memberAdopted.id).toBe(`${lbs.legacy}:${env.vm1}`);
      expect(outs("memberAdopted")).toMatchObject({ state: "ACTIVE" });
      await expectSame([
        ["member", "NetLoadBalancerMember", member],
        ["memberAdopted", "NetLoadBalancerMember", adopted],
      ]);
    });

    it("deletes a member whose join never applied (JOINING, which the next up would replace), and the next up creates it", async () => {
      await ctx().emu.control.post("/_emulator/faults", {
        kind: "workflow",
        outcome: "FAILED",
        method: "PUT",
        path: "/v1/workspaces/*/net-lbs/*/instances/*",
        times: 1,
      });
      // A deadline of its own, short: the join never applies, so the create waits all of it.
      const flaky = { loadBalancerId: lbs.legacy, instanceId: env.vm2, timeouts: { create: "1s" } };
      const err = await upFails("flaky", "NetLoadBalancerMember", flaky);
      expect(err.message).toMatch(
        /NetLoadBalancerMember instance .* did not finish before its deadline.*The NetLoadBalancerMember it made \(id \d+:\d+\) ended JOINING, which a later up would replace, so it was deleted/s,
      );
      expect(err.kept).toBeUndefined(); // nothing for the engine to keep in state
      // The API agrees: it is not a member.
      expect(await members(lbs.legacy)).toEqual([env.vm1]);
      const rows = (await inventory()).resources.netLbMembers;
      expect(rows.map((r) => r.name).sort()).toEqual(
        [`instance ${env.vm1} in balancer ${lbs.legacy}`, `instance ${env.vm2} in balancer ${lbs.b}`].sort(),
      );
      const { step, now } = await upLogged("flaky", "NetLoadBalancerMember", flaky);
      expect(step).toBe("create");
      expect(opened(now.outs).value).toMatchObject({ state: "ACTIVE" });
      expect((await members(lbs.legacy)).sort()).toEqual([env.vm1, env.vm2].sort());
    });

    it("deletes everything it made, leaving the inventory empty once the balancers are deleted", async () => {
      await deleteAll([
        ["flaky", "NetLoadBalancerMember"],
        ["memberAdopted", "NetLoadBalancerMember"],
        ["member", "NetLoadBalancerMember"],
      ]);
      for (const lbId of Object.values(lbs)) {
        expect({ lbId, members: await members(lbId) }).toEqual({ lbId, members: [] });
        expect((await staff().delete(`/v1/net-lbs/${lbId}`)).status).toBe(202);
      }
      await removeFixtures(["netLbMembers", "netLbs"]);
    });
  },
  { staff: true },
);
