/**
 * VpcAttachment on both faces, in process (tests/support/inProcess.ts), on the instances and VPCs
 * of tests/inprocess/support/network.ts: created with its synthetic id (instance:vpc) and the
 * private address the API allocated, a bad VPC id refused at check, a VPC of another workspace
 * refused by the API with nothing kept, replaced on either end (the new membership first),
 * deleted outside Pulumi read as gone, a lost create answer recovered without a duplicate, adopted
 * by adoptId, and deleted. The other refusals at preview are tests/unit/resources/vpcAttachment.test.ts;
 * an instance's own vpcIds are instance.test.ts's.
 */
import { describeEachFace, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "VpcAttachment",
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
      deleteAll,
      setup,
      removeFixtures,
    } = networkHarness(ctx);
    const vpcMembers = async (vpcId: string) => (await get(`/v1/vpcs/${vpcId}/instances`)).items as Array<{ id: string; ip: string }>;
    const att: Props = {};
    const adopted: Props = {};

    beforeAll(async () => {
      await setup();
      Object.assign(att, { instanceId: env.vm1, vpcId: env.net });
    });

    it("creates an attachment: id instance:vpc, the private address the API allocated", async () => {
      expect((await upLogged("att", "VpcAttachment", att)).step).toBe("create");
      expect(state.att.id).toBe(`${env.vm1}:${env.net}`);
      const membership = (await vpcMembers(env.net)).find((m) => m.id === env.vm1)!;
      expect(membership.ip).toMatch(/^10\.30\./);
      expect(outs("att")).toMatchObject({ instanceId: env.vm1, vpcId: env.net, privateIp: membership.ip });
    });

    it("diffs the same declaration as no change and sends no mutating request", async () => {
      await expectSame([["att", "VpcAttachment", att]]);
    });

    // The other rows of the preview table are the kind's unit tests (vpcAttachment's instanceId).
    it("check refuses a bad VpcAttachment id, naming the property and the rule, before any API request", async () => {
      await expectRefusedAtCheck("VpcAttachment", { ...att, vpcId: "net-one" }, "vpcId", /must be the VPC id/);
    });

    it("surfaces the API's refusal of a VPC of another workspace and keeps nothing", async () => {
      const foreign = await staff().post(`/v1/workspaces/${env.pc}/vpcs`, {
        name: "pc-net",
        description: "elsewhere",
        range: "10.77.0.0/16",
      });
      expect(foreign.status).toBe(201);
      const attached = await upFails("foreign", "VpcAttachment", { instanceId: env.vm2, vpcId: foreign.body.id });
      expect(attached.message).toMatch(/VpcAttachment of instance .* refused the attachment .*same workspace/s);
      expect(attached.kept).toBeUndefined();
      expect(await vpcMembers(foreign.body.id)).toEqual([]);
      expect((await staff().delete(`/v1/vpcs/${foreign.body.id}`)).status).toBe(200);
    });

    it("replaces on a change of either end, the VPC then the instance: new id, the old membership gone, the new one made first", async () => {
      att.vpcId = env.net2;
      const attUp = await upLogged("att", "VpcAttachment", att);
      expect({ step: attUp.step, replaces: attUp.diff?.replaces, first: attUp.diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["vpcId"],
        first: false,
      });
      expect(state.att.id).toBe(`${env.vm1}:${env.net2}`);
      expect((await vpcMembers(env.net)).map((m) => m.id)).toEqual([]);
      expect((await vpcMembers(env.net2)).map((m) => m.id)).toEqual([env.vm1]);

      att.instanceId = env.vm2;
      expect((await upLogged("att", "VpcAttachment", att)).diff?.replaces).toEqual(["instanceId"]);
      expect(state.att.id).toBe(`${env.vm2}:${env.net2}`);
      expect((await vpcMembers(env.net2)).map((m) => m.id)).toEqual([env.vm2]);
    });

    it("a read of an attachment deleted outside Pulumi answers no id", async () => {
      expect((await api().delete(`/v1/instances/${env.vm2}/vpcs/${env.net2}`)).status).toBe(200);
      expect((await refresh("att", "VpcAttachment")).id).toBe("");
      expect(state.att).toBeUndefined();
    });

    it("recreates it even when the create answer is lost: found and adopted, not duplicated", async () => {
      const logged = await createDespiteLostAnswer("POST", "/v1/instances/*/vpcs", "att", "VpcAttachment", att);
      // Recovered by looking it up, not by sending again.
      expect(calls(logged, `/v1/instances/${env.vm2}/vpcs`)).toHaveLength(1);
      expect(state.att.id).toBe(`${env.vm2}:${env.net2}`);
      expect((await vpcMembers(env.net2)).map((m) => m.id)).toEqual([env.vm2]);
      await expectSame([["att", "VpcAttachment", att]]);
    });

    it("adopts an existing attachment by adoptId, creating nothing", async () => {
      expect((await api().post(`/v1/instances/${env.vm1}/vpcs`, { vpc: BigInt(env.net) })).status).toBe(201);
      Object.assign(adopted, { instanceId: env.vm1, vpcId: env.net, adoptId: `${env.vm1}:${env.net}` });
      await adopt("attAdopted", "VpcAttachment", adopted);
      expect(state.attAdopted.id).toBe(`${env.vm1}:${env.net}`);
      expect(outs("attAdopted")).toMatchObject({ instanceId: env.vm1, vpcId: env.net });
      await expectSame([
        ["att", "VpcAttachment", att],
        ["attAdopted", "VpcAttachment", adopted],
      ]);
    });

    it("deletes everything it made, leaving the inventory empty", async () => {
      await deleteAll([
        ["attAdopted", "VpcAttachment"],
        ["att", "VpcAttachment"],
      ]);
      await removeFixtures(["vpcMembers"]);
    });
  },
  { staff: true },
);
