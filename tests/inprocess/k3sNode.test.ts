/**
 * K3sNode on both faces, in process (tests/support/inProcess.ts), on the cluster of
 * tests/inprocess/support/k3s.ts: a change of its instance replaces it, another instance joining
 * first, the service moving to it, then the old node draining and going. Its create, its no-change
 * diff and its delete are k3sCluster.test.ts's. The refusals at preview are
 * tests/unit/resources/k3sNode.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { k3sHarness } from "./support/k3s";

describeEachFace("K3sNode, with a service on it", (ctx) => {
  const { env, api, upLogged, outsOf, replaceAround, expectRunning, d, node, setup, stack } = k3sHarness(ctx);

  beforeAll(async () => {
    await setup();
    await stack();
  });

  describe("replaces on each replace field (new id, the old one gone from the API)", () => {
    it("node instanceId: another instance joins, then the service moves to it, then the old node drains and goes", async () => {
      const { diff, before, after } = await replaceAround("node-b", "K3sNode", node(env.vm[2]), async () => {
        d.web = { ...d.web, targetInstanceIds: [env.vm[0], env.vm[2]] };
        expect((await upLogged("web", "K3sService", d.web)).step).toBe("update");
      });
      expect({ replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        replaces: ["instanceId"],
        deleteBeforeReplace: false,
      });
      expect(after).not.toBe(before);
      expect((await api().get(`/v1/workspaces/${env.wid}/k3s/nodes/${before}`)).status).toBe(404);
      expect((await api().get(`/v1/instances/${env.vm[1]}/k3s`)).status).toBe(404);
      expect((await api().get(`/v1/instances/${env.vm[2]}/k3s`)).body.node).toMatchObject({ id: after, status: "READY" });
      expect(outsOf("node-b").outs).toMatchObject({ instanceId: env.vm[2], status: "READY", ready: true });
      await expectRunning("web", 2);
    });
  });
});
