/**
 * K3sCluster, K3sNode, K3sSecret and K3sService on both faces, in process
 * (tests/support/inProcess.ts): creates checked against the API, every updateRequest field of a
 * service in one PUT of the full desired state (settled again), a secret's data in place,
 * each replace field (a new name created first, a kept name deleted first, a secret's or a node's
 * replacement with its dependents updated in between), drift read and put back under the same id,
 * objects deleted outside Pulumi read as gone, adoption of a secret, a failed and a lost create,
 * the API's refusal to delete a secret a service still lists, and the secret data the plugin
 * marks. The refusals at preview are tests/unit/resources/k3s{Cluster,Node,Service,Secret}.test.ts;
 * what only the engine proves (secret values kept out of the state file, the engine deleting a
 * replaced secret only after the service naming it was updated) is tests/e2e/k3s.test.ts.
 */
import {
  CallError,
  describeEachFace,
  opened,
  up,
  type Props,
  type Recorded,
  lastSeqOf,
  mutationsSince,
  type Logged,
} from "../support/inProcess";

const PASSWORD = "pa55-Kube-inproc-7f3a9c";
const PASSWORD_2 = "rotated-Kube-inproc-b81d04";

describeEachFace("K3sCluster, K3sNode, K3sSecret and K3sService", (ctx) => {
  let wid: string;
  /** Three running instances: a and b join first, c takes b's place later. */
  let vm: string[] = [];
  const state: Record<string, Recorded> = {};
  const api = () => ctx().emu.api;
  const lastSeq = () => lastSeqOf(ctx().emu);
  const mutations = (since: number) => mutationsSince(ctx().emu, since);
  const writes = (logged: Logged[]) => logged.map((r) => `${r.method} ${r.path}`);
  /** One resource's up with the engine's order of calls; the mutating requests it made. */
  const upLogged = async (name: string, kind: string, declared: Props) => {
    const since = await lastSeq();
    const result = await up(ctx().face, kind, declared, state[name]);
    state[name] = result.now;
    return { ...result, mutations: await mutations(since) };
  };
  /** A refresh of one resource: the read's outputs (and, from the plugin, inputs) become the recorded state. */
  const refresh = async (name: string, kind: string) => {
    const read = await ctx().face.read(kind, state[name].id, state[name].outs, state[name].inputs);
    if (read.id) state[name] = { id: read.id, outs: read.outs, inputs: read.inputs ?? state[name].inputs };
    else delete state[name];
    return read;
  };
  /** Outputs with the plugin's secret envelopes opened, and the members it marked secret. */
  const outsOf = (name: string) => {
    const { value, secrets } = opened(state[name].outs);
    return { outs: value as Props, secrets: secrets.filter((s) => !s.includes(".") && !s.includes("[")) };
  };
  /** The members a face marks secret in an answer: the plugin marks the kind's secret outputs; the dynamic host none (the class does). */
  const secretsOn = (plugin: string[]) => (ctx().face.name === "plugin" ? plugin : []);
  const servicePath = (id: string) => `/v1/workspaces/${wid}/k3s/services/${id}`;
  const secretPath = (id: string) => `/v1/workspaces/${wid}/k3s/secrets/${id}`;
  const secretsInApi = async () =>
    (await api().get(`/v1/workspaces/${wid}/k3s/secrets`)).body.items as Array<{ id: string; name: string; keys: string[] }>;

  /**
   * A replacement the new object of which is created first, as the engine runs it among other
   * resources: the replacement, then the updates of what depends on it (`dependents`), and only
   * then the old object's delete (tests/e2e/k3s.test.ts proves that order through the engine).
   */
  async function replaceAround(name: string, kind: string, declared: Props, dependents: () => Promise<void>) {
    const old = state[name];
    const checked = await ctx().face.check(kind, declared, old.inputs);
    const inputs = opened(checked.inputs).value as Props;
    const diff = await ctx().face.diff(kind, old.id, old.outs, inputs, old.inputs);
    const made = await ctx().face.create(kind, inputs);
    state[name] = { id: made.id, inputs, outs: made.outs };
    await dependents();
    await ctx().face.delete(kind, old.id, old.outs);
    return { diff, before: old.id, after: made.id };
  }

  /** A settled service, as recorded and as the API shows it. */
  async function expectRunning(name: string, replicas: number) {
    const { outs } = outsOf(name);
    expect(outs).toMatchObject({
      status: "RUNNING",
      updating: false,
      desiredReplicas: replicas,
      availableReplicas: replicas,
      updatedReplicas: replicas,
    });
    expect(outs.pods).toHaveLength(replicas);
    for (const pod of outs.pods as Array<Record<string, unknown>>)
      expect(pod).toMatchObject({ phase: "Running", ready: true, restartCount: 0, nodeName: expect.any(String) });
    const live = (await api().get(servicePath(state[name].id))).body;
    expect(live.service.status).toBe("RUNNING");
    expect(live.live).toMatchObject({ desired_replicas: replicas, available_replicas: replicas, updating: false });
  }

  // The declarations, changed case by case.
  let creds: Props = { name: "app-creds", data: { DB_PASSWORD: PASSWORD } };
  let web: Props = {};
  const node = (instanceId: string) => ({ instanceId });

  beforeAll(async () => {
    wid = ctx().emu.workspaceId;
    const plans = (await api().get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
    const plan = plans.find((p) => p.name === "lightning-2")!.id;
    const created = await Promise.all(
      ["k3s-a", "k3s-b", "k3s-c"].map((name) =>
        api().post(`/v1/workspaces/${wid}/instances`, { type: "PLAN", name, region: "NA_01", plan: BigInt(plan) }),
      ),
    );
    for (const res of created) expect(res.status).toBe(202);
    vm = created.map((res) => String(res.body.resource.id));
    await Promise.all(
      vm.map((id) =>
        ctx().emu.waitFor(`/v1/instances/${id}`, (b: { state: string; online: boolean }) => b.state === "AVAILABLE" && b.online, 10_000),
      ),
    );
  });

  it("creates the cluster, two nodes, a secret and a service that uses it and targets both instances, checked against the API", async () => {
    // In the order the engine follows the program's dependsOn: the cluster, its nodes and secret, then the service.
    expect((await upLogged("cluster", "K3sCluster", {})).step).toBe("create");
    expect(outsOf("cluster").outs).toMatchObject({ status: "ACTIVE", name: `ws-${wid}`, workspaceId: wid });
    expect((await api().get(`/v1/workspaces/${wid}/k3s`)).body).toMatchObject({ id: state.cluster.id, status: "ACTIVE" });

    const nodeNames: string[] = [];
    for (const [name, instance] of [
      ["node-a", vm[0]],
      ["node-b", vm[1]],
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

    expect((await upLogged("creds", "K3sSecret", creds)).step).toBe("create");
    const secretOuts = outsOf("creds");
    expect(secretOuts.outs).toMatchObject({ keys: ["DB_PASSWORD"], data: { DB_PASSWORD: PASSWORD } });
    // The values are secret; the key names stay readable.
    expect(secretOuts.secrets).toEqual(secretsOn(["data"]));
    expect(await secretsInApi()).toContainEqual({ id: state.creds.id, name: "app-creds", keys: ["DB_PASSWORD"] });

    web = {
      name: "web",
      image: "nginx:1.27",
      mode: "SPREAD",
      targetInstanceIds: [vm[0], vm[1]],
      replicas: 2,
      ports: [{ hostPort: 8080, containerPort: 80, http: true }],
      environment: { LOG_LEVEL: "info" },
      secretRefs: [outsOf("creds").outs.name],
    };
    expect((await upLogged("web", "K3sService", web)).step).toBe("create");
    await expectRunning("web", 2);
    const { outs } = outsOf("web");
    expect(outs).toMatchObject({
      name: "web",
      mode: "SPREAD",
      image: "nginx:1.27",
      secretRefs: ["app-creds"],
      targetInstanceIds: [vm[0], vm[1]],
      updateStrategy: "ROLLING",
    });
    expect(new Set((outs.pods as Array<{ nodeName: string }>).map((p) => p.nodeName))).toEqual(new Set(nodeNames));
    const apiService = (await api().get(servicePath(state.web.id))).body.service;
    expect(apiService).toMatchObject({
      secret_refs: ["app-creds"],
      ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }],
    });
    expect(apiService.target_instances.map((t: { id: string }) => t.id)).toEqual([vm[0], vm[1]]);
  });

  it("diffs the same declarations as no change and sends no mutating request", async () => {
    for (const [name, kind, declared] of [
      ["cluster", "K3sCluster", {}],
      ["node-a", "K3sNode", node(vm[0])],
      ["node-b", "K3sNode", node(vm[1])],
      ["creds", "K3sSecret", creds],
      ["web", "K3sService", web],
    ] as const) {
      const { step, mutations: sent } = await upLogged(name, kind, declared);
      expect({ name, step, sent }).toEqual({ name, step: "same", sent: [] });
    }
  });

  describe("updates each updateRequest field of the service in place (same id, one PUT, settled again)", () => {
    const steps: Array<[string, () => Props, (service: Record<string, unknown>, put: Logged) => void, number]> = [
      ["image", () => ({ image: "nginx:1.28" }), (s) => expect(s.image).toBe("nginx:1.28"), 2],
      ["replicas", () => ({ replicas: 3 }), (s) => expect(s.replicas).toBe(3), 3],
      [
        "environment",
        () => ({ environment: { LOG_LEVEL: "debug", FEATURE_X: "on" } }),
        // Write-only in the API: what the PUT sent is the proof.
        (_s, put) => expect((put.body as { environment: unknown }).environment).toEqual({ LOG_LEVEL: "debug", FEATURE_X: "on" }),
        3,
      ],
      [
        "ports",
        () => ({
          ports: [
            { hostPort: 8080, containerPort: 80, http: true },
            { hostPort: 5353, containerPort: 53, protocol: "UDP" },
          ],
        }),
        (s) =>
          expect(s.ports).toEqual([
            { host_port: 8080, container_port: 80, protocol: "TCP", http: true },
            { host_port: 5353, container_port: 53, protocol: "UDP", http: false },
          ]),
        3,
      ],
      [
        "volumes",
        () => ({ volumes: [{ hostPath: "/srv/web", containerPath: "/usr/share/nginx/html" }] }),
        (s) => expect(s.volumes).toEqual([{ host_path: "/srv/web", container_path: "/usr/share/nginx/html" }]),
        3,
      ],
      ["updateStrategy", () => ({ updateStrategy: "START_FIRST" }), (s) => expect(s.update_strategy).toBe("START_FIRST"), 3],
      ["secretRefs (removed)", () => ({ secretRefs: [] }), (s) => expect(s.secret_refs).toEqual([]), 3],
      [
        "secretRefs (added back)",
        () => ({ secretRefs: [outsOf("creds").outs.name] }),
        (s) => expect(s.secret_refs).toEqual(["app-creds"]),
        3,
      ],
      [
        "targetInstanceIds",
        () => ({ targetInstanceIds: [vm[0]] }),
        (s) => expect((s.target_instances as Array<{ id: string }>).map((t) => t.id)).toEqual([vm[0]]),
        3,
      ],
    ];

    it.each(steps)("%s", async (_field, change, check, replicas) => {
      const id = state.web.id;
      web = { ...web, ...change() };
      const { step, now, mutations: sent } = await upLogged("web", "K3sService", web);
      expect({ step, id: now.id }).toEqual({ step: "update", id });
      expect(writes(sent)).toEqual([`PUT ${servicePath(id)}`]);
      check((await api().get(servicePath(id))).body.service, sent[0]);
      await expectRunning("web", replicas);
    });
  });

  it("replaces the secret's data in place: same id, one PUT, the keys follow, the values secret", async () => {
    const id = state.creds.id;
    creds = { ...creds, data: { DB_PASSWORD: PASSWORD_2, DB_USER: "app" } };
    const { step, now, mutations: sent } = await upLogged("creds", "K3sSecret", creds);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PUT ${secretPath(id)}`]);
    const { outs, secrets } = outsOf("creds");
    expect(outs.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect(secrets).toEqual(secretsOn(["data"]));
    expect((await secretsInApi()).find((s) => s.id === id)?.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
  });

  describe("replaces on each replace field (new id, the old one gone from the API)", () => {
    it("service name: the new service is created before the old one goes", async () => {
      const before = state.web.id;
      web = { ...web, name: "web-v2" };
      const { step, diff, now, mutations: sent } = await upLogged("web", "K3sService", web);
      expect({ step, replaces: diff?.replaces, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["name"],
        deleteBeforeReplace: false,
      });
      expect(now.id).not.toBe(before);
      expect((await api().get(servicePath(before))).status).toBe(404);
      expect((await api().get(servicePath(now.id))).body.service.name).toBe("web-v2");
      const order = sent.map((r) => r.method);
      expect(order.indexOf("POST")).toBeLessThan(order.indexOf("DELETE"));
      await expectRunning("web", 3);
    });

    it("service mode: same name, so the old service is deleted first", async () => {
      const before = state.web.id;
      web = { ...web, mode: "PINNED", targetInstanceIds: [vm[0], vm[1]] };
      const { step, diff, now, mutations: sent } = await upLogged("web", "K3sService", web);
      expect({ step, replaces: diff?.replaces, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({
        step: "replace",
        replaces: ["mode"],
        deleteBeforeReplace: true,
      });
      expect(now.id).not.toBe(before);
      expect((await api().get(servicePath(before))).status).toBe(404);
      const order = sent.map((r) => r.method);
      expect(order.indexOf("DELETE")).toBeLessThan(order.indexOf("POST"));
      expect((await api().get(servicePath(now.id))).body.service).toMatchObject({ name: "web-v2", mode: "PINNED" });
      // PINNED: one pod per target instance.
      await expectRunning("web", 2);
    });

    it("secret name: a new secret, then the service's reference follows, then the old secret goes", async () => {
      const serviceId = state.web.id;
      creds = { ...creds, name: "app-creds-v2" };
      const { diff, before, after } = await replaceAround("creds", "K3sSecret", creds, async () => {
        web = { ...web, secretRefs: [outsOf("creds").outs.name] };
        expect((await upLogged("web", "K3sService", web)).step).toBe("update");
      });
      expect({ replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        replaces: ["name"],
        deleteBeforeReplace: false,
      });
      expect(after).not.toBe(before);
      const secrets = await secretsInApi();
      expect(secrets.map((s) => s.id)).not.toContain(before);
      expect(secrets.find((s) => s.id === after)).toMatchObject({ name: "app-creds-v2", keys: ["DB_PASSWORD", "DB_USER"] });
      expect(state.web.id).toBe(serviceId);
      expect((await api().get(servicePath(serviceId))).body.service.secret_refs).toEqual(["app-creds-v2"]);
    });

    it("node instanceId: another instance joins, then the service moves to it, then the old node drains and goes", async () => {
      const { diff, before, after } = await replaceAround("node-b", "K3sNode", node(vm[2]), async () => {
        web = { ...web, targetInstanceIds: [vm[0], vm[2]] };
        expect((await upLogged("web", "K3sService", web)).step).toBe("update");
      });
      expect({ replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        replaces: ["instanceId"],
        deleteBeforeReplace: false,
      });
      expect(after).not.toBe(before);
      expect((await api().get(`/v1/workspaces/${wid}/k3s/nodes/${before}`)).status).toBe(404);
      expect((await api().get(`/v1/instances/${vm[1]}/k3s`)).status).toBe(404);
      expect((await api().get(`/v1/instances/${vm[2]}/k3s`)).body.node).toMatchObject({ id: after, status: "READY" });
      expect(outsOf("node-b").outs).toMatchObject({ instanceId: vm[2], status: "READY", ready: true });
      await expectRunning("web", 2);
    });
  });

  it("a read finds an image changed outside Pulumi; the next up PUTs the full declaration back under the same id", async () => {
    const id = state.web.id;
    const current = (await api().get(servicePath(id))).body.service;
    const put = await api().put(servicePath(id), {
      image: "nginx:1.29",
      target_instances: current.target_instances.map((t: { id: string }) => BigInt(t.id)),
      replicas: current.replicas,
      ports: current.ports,
      volumes: current.volumes,
      secret_refs: current.secret_refs,
      update_strategy: current.update_strategy,
    });
    expect(put.status).toBe(202);
    expect(await ctx().emu.waitWorkflow(put.body.id)).toBe("COMPLETED");
    expect((await refresh("web", "K3sService")).id).toBe(id);
    expect(outsOf("web").outs.image).toBe("nginx:1.29");
    const { step, now, mutations: sent } = await upLogged("web", "K3sService", web);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PUT ${servicePath(id)}`]);
    // The full desired state goes back, including the write-only environment the outside PUT cleared.
    expect(sent[0].body).toMatchObject({ image: "nginx:1.28", environment: { LOG_LEVEL: "debug", FEATURE_X: "on" } });
    expect((await api().get(servicePath(id))).body.service.image).toBe("nginx:1.28");
    await expectRunning("web", 2);
  });

  it("a read notices secret keys changed outside Pulumi; the next up writes the declared data again, then sees no change", async () => {
    const id = state.creds.id;
    expect((await api().put(secretPath(id), { data: { OTHER: "x" } })).status).toBe(200);
    await refresh("creds", "K3sSecret");
    // The values cannot be read back: the recorded data no longer matches the keys, so it reads as null.
    expect(outsOf("creds").outs).toMatchObject({ keys: ["OTHER"], data: null });
    const { step, mutations: sent } = await upLogged("creds", "K3sSecret", creds);
    expect(step).toBe("update");
    expect(writes(sent)).toEqual([`PUT ${secretPath(id)}`]);
    expect((await secretsInApi()).find((s) => s.id === id)?.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect(outsOf("creds").outs.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect((await upLogged("creds", "K3sSecret", creds)).step).toBe("same");
  });

  it("adopts an existing secret by adoptId and writes the declared data with one PUT, no POST (values cannot be compared)", async () => {
    const existing = await api().post(`/v1/workspaces/${wid}/k3s/secrets`, { name: "legacy-creds", data: { TOKEN: "old-value" } });
    expect(existing.status).toBe(201);
    const adopted = { name: "legacy-creds", data: { TOKEN: "new-value" }, adoptId: String(existing.body.id) };
    const { step, now, mutations: sent } = await upLogged("legacy", "K3sSecret", adopted);
    expect({ step, id: now.id }).toEqual({ step: "create", id: String(existing.body.id) });
    // Same key names, yet the values are unknown: adoption converges them with one PUT.
    expect(writes(sent)).toEqual([`PUT ${secretPath(now.id)}`]);
    const { outs, secrets } = outsOf("legacy");
    expect(outs.keys).toEqual(["TOKEN"]);
    expect(secrets).toEqual(secretsOn(["data"]));
    expect((await upLogged("legacy", "K3sSecret", adopted)).step).toBe("same");
  });

  it("reads a service and a secret deleted outside Pulumi as gone (no id); the next up creates them", async () => {
    const serviceId = state.web.id;
    const legacyId = state.legacy.id;
    const del = await api().delete(servicePath(serviceId));
    expect(del.status).toBe(202);
    expect(await ctx().emu.waitWorkflow(del.body.id)).toBe("COMPLETED");
    expect((await api().delete(secretPath(legacyId))).status).toBe(204);
    expect((await refresh("web", "K3sService")).id).toBe("");
    expect((await refresh("legacy", "K3sSecret")).id).toBe("");
    // The adopted secret is gone: declared anew without adoptId (it would point at nothing).
    expect((await upLogged("legacy", "K3sSecret", { name: "legacy-creds", data: { TOKEN: "new-value" } })).step).toBe("create");
    expect((await upLogged("web", "K3sService", web)).step).toBe("create");
    expect(state.web.id).not.toBe(serviceId);
    expect(state.legacy.id).not.toBe(legacyId);
    expect((await secretsInApi()).find((s) => s.name === "legacy-creds")?.keys).toEqual(["TOKEN"]);
    await expectRunning("web", 2);
  });

  it("refuses to delete a secret a service still lists: the API's 409 reason, with what to do; nothing is lost", async () => {
    const secretId = state.creds.id;
    await expect(ctx().face.delete("K3sSecret", secretId, state.creds.outs)).rejects.toThrow(
      /K3sSecret "app-creds-v2": the API refuses to delete secret \d+ \(409: The secret is referenced by service web-v2.*Service web-v2 still lists "app-creds-v2" in secret_refs: remove the reference first/s,
    );
    expect((await secretsInApi()).map((s) => s.id)).toContain(secretId);
    // Declaring it again is no change.
    const { step, mutations: sent } = await upLogged("creds", "K3sSecret", creds);
    expect({ step, sent }).toEqual({ step: "same", sent: [] });
  });

  it("deletes a service whose create workflow FAILED, keeping nothing; the next up creates it", async () => {
    await ctx().emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/k3s/services",
      times: 1,
    });
    const batch = { name: "batch", image: "busybox:1.36", mode: "PINNED", targetInstanceIds: [vm[0]] };
    const err = (await up(ctx().face, "K3sService", batch).then(
      () => undefined,
      (e: unknown) => e,
    )) as CallError;
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(/K3sService "batch": create failed: workflow k3s-service-deploy \d+ ended FAILED/);
    const failedId = /The K3sService it made \(id (\d+)\) ended FAILED.*?, which a later up would replace, so it was deleted/s.exec(
      err.message,
    )?.[1];
    expect(failedId).toMatch(/^\d+$/);
    expect(err.kept).toBeUndefined(); // nothing for the engine to keep in state
    expect((await api().get(servicePath(failedId!))).status).toBe(404);
    expect((await upLogged("batch", "K3sService", batch)).step).toBe("create");
    expect(state.batch.id).not.toBe(failedId);
    await expectRunning("batch", 1);
  });

  it("recovers from a service create whose answer was lost: found by name, adopted, not duplicated", async () => {
    await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/k3s/services", times: 1 });
    const { step, mutations: sent } = await upLogged("worker", "K3sService", {
      name: "worker",
      image: "busybox:1.36",
      mode: "PINNED",
      targetInstanceIds: [vm[2]],
    });
    expect(step).toBe("create");
    expect(writes(sent).filter((w) => w === `POST /v1/workspaces/${wid}/k3s/services`)).toHaveLength(1);
    const listed = (await api().get(`/v1/workspaces/${wid}/k3s/services`, { name: "worker" })).body.items;
    expect(listed).toHaveLength(1);
    expect(state.worker.id).toBe(String(listed[0].service.id));
    await expectRunning("worker", 1);
  });

  it("deletes everything in the engine's order (services, secrets, nodes, the cluster), leaving no cluster, node, service or secret", async () => {
    for (const [name, kind] of [
      ["web", "K3sService"],
      ["batch", "K3sService"],
      ["worker", "K3sService"],
      ["creds", "K3sSecret"],
      ["legacy", "K3sSecret"],
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
