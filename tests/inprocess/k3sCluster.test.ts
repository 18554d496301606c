/**
 * K3sCluster on both faces, in process (tests/support/inProcess.ts), with the nodes, the secret and
 * the service that live on it: the cluster, two nodes, a secret and a service that lists it created
 * and checked against the API, the same declarations diffed as no change, and everything deleted in
 * the engine's order. Each other kind's own cases are k3sNode, k3sService and k3sSecret.test.ts
 * (tests/inprocess/support/k3s.ts: what the four share). The refusals at preview are
 * tests/unit/resources/k3s{Cluster,Node,Service,Secret}.test.ts; what only the engine proves
 * (secret values kept out of the state file, the engine deleting a replaced secret only after the
 * service naming it was updated) is tests/e2e/k3s.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { PASSWORD, k3sHarness } from "./support/k3s";

describeEachFace("K3sCluster, with nodes, a secret and a service on it", (ctx) => {
  const { env, state, api, upLogged, outsOf, secretsOn, servicePath, secretsInApi, expectRunning, d, node, setup } = k3sHarness(ctx);

  beforeAll(async () => {
    await setup();
  });

  it("creates the cluster, two nodes, a secret and a service that uses it and targets both instances, checked against the API", async () => {
    // In the order the engine follows the program's dependsOn: the cluster, its nodes and secret, then the service.
    expect((await upLogged("cluster", "K3sCluster", {})).step).toBe("create");
    expect(outsOf("cluster").outs).toMatchObject({ status: "ACTIVE", name: `ws-${env.wid}`, workspaceId: env.wid });
    expect((await api().get(`/v1/workspaces/${env.wid}/k3s`)).body).toMatchObject({ id: state.cluster.id, status: "ACTIVE" });

    const nodeNames: string[] = [];
    for (const [name, instance] of [
      ["node-a", env.vm[0]],
      ["node-b", env.vm[1]],
    ]) {
      expect((await upLogged(name, "K3sNode", node(instance))).step).toBe("create");
      const { outs } = outsOf(name);
      expect(outs).toMatchObject({
        status: "READY",
        ready: true,
        instanceId: instance,
        conditions: { Ready: "True" },
        allocatable: { cpu: "2", pods: "110" },
      });
      const viaInstance = (await api().get(`/v1/instances/${instance}/k3s`)).body;
      expect(viaInstance.node).toMatchObject({ id: state[name].id, status: "READY", node_name: outs.nodeName });
      nodeNames.push(outs.nodeName as string);
    }

    expect((await upLogged("creds", "K3sSecret", d.creds)).step).toBe("create");
    const secretOuts = outsOf("creds");
    expect(secretOuts.outs).toMatchObject({ keys: ["DB_PASSWORD"], data: { DB_PASSWORD: PASSWORD } });
    // The values are secret; the key names stay readable.
    expect(secretOuts.secrets).toEqual(secretsOn(["data"]));
    expect(await secretsInApi()).toContainEqual({ id: state.creds.id, name: "app-creds", keys: ["DB_PASSWORD"] });

    d.web = {
      name: "web",
      image: "nginx:1.27",
      mode: "SPREAD",
      targetInstanceIds: [env.vm[0], env.vm[1]],
      replicas: 2,
      ports: [{ hostPort: 8080, containerPort: 80, http: true }],
      environment: { LOG_LEVEL: "info" },
      secretRefs: [outsOf("creds").outs.name],
    };
    expect((await upLogged("web", "K3sService", d.web)).step).toBe("create");
    await expectRunning("web", 2);
    const { outs } = outsOf("web");
    expect(outs).toMatchObject({
      name: "web",
      mode: "SPREAD",
      image: "nginx:1.27",
      secretRefs: ["app-creds"],
      targetInstanceIds: [env.vm[0], env.vm[1]],
      updateStrategy: "ROLLING",
    });
    expect(new Set((outs.pods as Array<{ nodeName: string }>).map((p) => p.nodeName))).toEqual(new Set(nodeNames));
    const apiService = (await api().get(servicePath(state.web.id))).body.service;
    expect(apiService).toMatchObject({
      secret_refs: ["app-creds"],
      ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }],
    });
    expect(apiService.target_instances.map((t: { id: string }) => t.id)).toEqual([env.vm[0], env.vm[1]]);
  });

  it("diffs the same declarations as no change and sends no mutating request", async () => {
    for (const [name, kind, declared] of [
      ["cluster", "K3sCluster", {}],
      ["node-a", "K3sNode", node(env.vm[0])],
      ["node-b", "K3sNode", node(env.vm[1])],
      ["creds", "K3sSecret", d.creds],
      ["web", "K3sService", d.web],
    ] as const) {
      const { step, mutations: sent } = await upLogged(name, kind, declared);
      expect({ name, step, sent }).toEqual({ name, step: "same", sent: [] });
    }
  });

  it("deletes everything in the engine's order (services, secrets, nodes, the cluster), leaving no cluster, node, service or secret", async () => {
    for (const [name, kind] of [
      ["web", "K3sService"],
      ["creds", "K3sSecret"],
      ["node-a", "K3sNode"],
      ["node-b", "K3sNode"],
      ["cluster", "K3sCluster"],
    ] as const) {
      await ctx().face.delete(kind, state[name].id, state[name].outs);
      delete state[name];
    }
    const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { resources: Record<string, unknown[]> };
    for (const table of ["k3sClusters", "k3sNodes", "k3sServices", "k3sSecrets"])
      expect({ table, left: inventory.resources[table] }).toEqual({ table, left: [] });
  });
});
