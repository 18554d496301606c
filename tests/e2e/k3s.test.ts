/**
 * Managed Kubernetes end to end: K3sCluster, K3sNode, K3sService and K3sSecret through the real
 * pulumi engine against the in-process emulator. One stack; each test builds on the previous
 * one's state. The instances the nodes enrol are made directly through the API.
 *
 * Kinds: K3sCluster, K3sNode, K3sService, K3sSecret (scripts/testsOf.js: this file is their end-to-end proof)
 */
import { changes, markedSecret, ref, secret, startE2E, type Declaration, type E2E, type LoggedRequest } from "./harness";

jest.setTimeout(600_000);

const PASSWORD = "pa55-Kube-e2e-7f3a9c";
const PASSWORD_2 = "rotated-Kube-e2e-b81d04";

describe("Managed Kubernetes through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;
  /** Three running instances: a and b join first, c takes b's place later. */
  let vm: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E("k3s");
    wid = e2e.emu.workspaceId;
    const plans = await e2e.emu.api.get("/v1/plans", { name: "lightning-2" });
    const plan = plans.body.items.find((p: { name: string }) => p.name === "lightning-2").id as string;
    const created = await Promise.all(
      ["k3s-a", "k3s-b", "k3s-c"].map((name) =>
        e2e.emu.api.post(`/v1/workspaces/${wid}/instances`, { type: "PLAN", name, region: "NA_01", plan: BigInt(plan) }),
      ),
    );
    for (const res of created) expect(res.status).toBe(202);
    vm = created.map((res) => String(res.body.resource.id));
    await Promise.all(
      vm.map((id) =>
        e2e.emu.waitFor(`/v1/instances/${id}`, (b: { state: string; online: boolean }) => b.state === "AVAILABLE" && b.online, 10_000),
      ),
    );
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  // The declaration, changed test by test.
  let nodeB = 1;
  let creds: { name: string; data: Record<string, string> } = { name: "app-creds", data: { DB_PASSWORD: PASSWORD } };
  let webArgs: Record<string, unknown> = {};
  let extras: Declaration[] = [];
  const declarations = (): Declaration[] => [
    { type: "K3sCluster", name: "cluster" },
    { type: "K3sNode", name: "node-a", args: { instanceId: vm[0] }, opts: { dependsOn: ["cluster"] } },
    { type: "K3sNode", name: "node-b", args: { instanceId: vm[nodeB] }, opts: { dependsOn: ["cluster"] } },
    { type: "K3sSecret", name: "creds", args: { name: creds.name, data: secret(creds.data) }, opts: { dependsOn: ["cluster"] } },
    { type: "K3sService", name: "web", args: webArgs, opts: { dependsOn: ["node-a", "node-b"] } },
    ...extras,
  ];

  const api = () => e2e.emu.api;
  const servicePath = (id: string) => `/v1/workspaces/${wid}/k3s/services/${id}`;
  const secretsInApi = async () =>
    (await api().get(`/v1/workspaces/${wid}/k3s/secrets`)).body.items as Array<{ id: string; name: string; keys: string[] }>;
  const writes = (requests: LoggedRequest[], method: string, path: string) =>
    requests.filter((r) => r.method === method && r.path === path);
  /** Marked secret in the exported state (the export decrypts, keeping Pulumi's secret signature). */

  /** A settled service, as recorded and as the API shows it. */
  async function expectRunning(name: string, replicas: number) {
    const outs = await e2e.outputsOf(name);
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
    const live = (await api().get(servicePath(await e2e.idOf(name)))).body;
    expect(live.service.status).toBe("RUNNING");
    expect(live.live).toMatchObject({ desired_replicas: replicas, available_replicas: replicas, updating: false });
  }

  it("creates the cluster, two nodes, a secret and a service that uses it and targets both instances", async () => {
    webArgs = {
      name: "web",
      image: "nginx:1.27",
      mode: "SPREAD",
      targetInstanceIds: [vm[0], vm[1]],
      replicas: 2,
      ports: [{ hostPort: 8080, containerPort: 80, http: true }],
      environment: { LOG_LEVEL: "info" },
      secretRefs: [ref("creds.name")],
    };
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ create: 6 });

    const cluster = await e2e.resource("cluster");
    expect(cluster.outputs).toMatchObject({ status: "ACTIVE", name: `ws-${wid}`, workspaceId: wid });
    expect((await api().get(`/v1/workspaces/${wid}/k3s`)).body).toMatchObject({ id: cluster.id, status: "ACTIVE" });

    const nodeNames: string[] = [];
    for (const [name, instance] of [
      ["node-a", vm[0]],
      ["node-b", vm[1]],
    ]) {
      const node = await e2e.resource(name);
      expect(node.outputs).toMatchObject({
        status: "READY",
        ready: true,
        instanceId: instance,
        conditions: { Ready: "True" },
        allocatable: { cpu: "2", pods: "110" },
      });
      const viaInstance = (await api().get(`/v1/instances/${instance}/k3s`)).body;
      expect(viaInstance.node).toMatchObject({ id: node.id, status: "READY", node_name: node.outputs.nodeName });
      nodeNames.push(node.outputs.nodeName as string);
    }

    const secretState = await e2e.resource("creds");
    expect(secretState.outputs.keys).toEqual(["DB_PASSWORD"]);
    expect(await secretsInApi()).toContainEqual({ id: secretState.id, name: "app-creds", keys: ["DB_PASSWORD"] });

    await expectRunning("web", 2);
    const web = await e2e.resource("web");
    expect(web.outputs).toMatchObject({
      name: "web",
      mode: "SPREAD",
      image: "nginx:1.27",
      secretRefs: ["app-creds"],
      targetInstanceIds: [vm[0], vm[1]],
      updateStrategy: "ROLLING",
    });
    expect(new Set((web.outputs.pods as Array<{ nodeName: string }>).map((p) => p.nodeName))).toEqual(new Set(nodeNames));
    const apiService = (await api().get(servicePath(web.id!))).body.service;
    expect(apiService).toMatchObject({
      secret_refs: ["app-creds"],
      ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }],
    });
    expect(apiService.target_instances.map((t: { id: string }) => t.id)).toEqual([vm[0], vm[1]]);
  });

  it("previews no changes afterwards and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(declarations());
    expect(preview.changeSummary).toEqual({ same: 6 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("keeps the secret's values out of the state file in plaintext while its key names stay readable", async () => {
    const raw = await e2e.rawState();
    expect(raw).toContain("app-creds");
    expect(raw).not.toContain(PASSWORD);
    // The keys output is plain JSON in the stored state; data (input and output) is ciphertext.
    // (Indented JSON on pulumi 3.163, compact on 3.274.)
    expect(raw).toMatch(/"keys":\s*\[\s*"DB_PASSWORD"\s*\]/);
    expect(raw).toMatch(/"data":\s*\{\s*"4dabf18193072939515e22adb298388d":\s*"1b47061264138c4ac30d75fd1eb44270",\s*"ciphertext":\s*"v1:/);
    const stored = await e2e.resource("creds");
    expect(stored.outputs.keys).toEqual(["DB_PASSWORD"]);
    expect(markedSecret(stored.outputs.data)).toBe(true);
    expect(markedSecret(stored.inputs.data)).toBe(true);
    expect(markedSecret(stored.outputs.keys)).toBe(false);
  });

  it("rejects bad input at preview, naming the property and the rule, before any API request", async () => {
    const since = await e2e.lastSeq();
    const bad = declarations().map((d) =>
      d.name === "web"
        ? {
            ...d,
            args: {
              ...webArgs,
              image: "nginx",
              replicas: 0.5,
              ports: [{ hostPort: 70000, containerPort: 80 }],
              volumes: [{ hostPath: "srv/data", containerPath: "/data" }],
            },
          }
        : d,
    );
    const failure = e2e.preview(bad);
    await expect(failure).rejects.toThrow(/image.*container image with a tag/s);
    await expect(failure).rejects.toThrow(/replicas.*must be a whole number \(spec part 3, Kubernetes service: replicas is an integer\)/s);
    await expect(failure).rejects.toThrow(/ports\[0\]\.hostPort.*1 to 65535/s);
    await expect(failure).rejects.toThrow(/volumes\[0\]\.hostPath.*absolute path/s);
    expect(await e2e.requests(since)).toEqual([]);
  });

  describe("updates each updateRequest field of the service in place (same id, one PUT, settled again)", () => {
    const steps: Array<[string, () => Record<string, unknown>, (service: Record<string, unknown>, put: LoggedRequest) => void, number]> = [
      ["image", () => ({ image: "nginx:1.28" }), (s) => expect(s.image).toBe("nginx:1.28"), 2],
      ["replicas", () => ({ replicas: 3 }), (s) => expect(s.replicas).toBe(3), 3],
      [
        "environment",
        () => ({ environment: { LOG_LEVEL: "debug", FEATURE_X: "on" } }),
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
      ["secretRefs (added back)", () => ({ secretRefs: [ref("creds.name")] }), (s) => expect(s.secret_refs).toEqual(["app-creds"]), 3],
      [
        "targetInstanceIds",
        () => ({ targetInstanceIds: [vm[0]] }),
        (s) => expect((s.target_instances as Array<{ id: string }>).map((t) => t.id)).toEqual([vm[0]]),
        3,
      ],
    ];

    it.each(steps)("%s", async (_field, change, check, replicas) => {
      const id = await e2e.idOf("web");
      Object.assign(webArgs, change());
      const since = await e2e.lastSeq();
      const result = await e2e.up(declarations());
      expect(changes(result)).toEqual({ same: 5, update: 1 });
      expect(await e2e.idOf("web")).toBe(id);
      const mutations = await e2e.mutations(since);
      const puts = writes(mutations, "PUT", servicePath(id));
      expect(puts).toHaveLength(1);
      expect(mutations).toHaveLength(1);
      check((await api().get(servicePath(id))).body.service, puts[0]);
      await expectRunning("web", replicas);
    });
  });

  it("replaces the secret's data in place (same id, keys follow, values stay out of the state file)", async () => {
    const id = await e2e.idOf("creds");
    creds = { ...creds, data: { DB_PASSWORD: PASSWORD_2, DB_USER: "app" } };
    const since = await e2e.lastSeq();
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 5, update: 1 });
    expect(await e2e.idOf("creds")).toBe(id);
    const mutations = await e2e.mutations(since);
    expect(mutations.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /v1/workspaces/${wid}/k3s/secrets/${id}`]);
    expect((await e2e.outputsOf("creds")).keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect((await secretsInApi()).find((s) => s.id === id)?.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect(await e2e.rawState()).not.toContain(PASSWORD_2);
  });

  describe("replaces on each replace field (new id, the old one gone from the API)", () => {
    it("service name: the new service is created before the old one goes", async () => {
      const before = await e2e.idOf("web");
      webArgs = { ...webArgs, name: "web-v2" };
      const since = await e2e.lastSeq();
      const result = await e2e.up(declarations());
      expect(changes(result)).toEqual({ same: 5, replace: 1 });
      const after = await e2e.idOf("web");
      expect(after).not.toBe(before);
      expect((await api().get(servicePath(before))).status).toBe(404);
      expect((await api().get(servicePath(after))).body.service.name).toBe("web-v2");
      const order = (await e2e.mutations(since)).map((r) => r.method);
      expect(order.indexOf("POST")).toBeLessThan(order.indexOf("DELETE"));
      await expectRunning("web", 3);
    });

    it("service mode: same name, so the old service is deleted first", async () => {
      const before = await e2e.idOf("web");
      webArgs = { ...webArgs, mode: "PINNED", targetInstanceIds: [vm[0], vm[1]] };
      const since = await e2e.lastSeq();
      const result = await e2e.up(declarations());
      expect(changes(result)).toEqual({ same: 5, replace: 1 });
      const after = await e2e.idOf("web");
      expect(after).not.toBe(before);
      expect((await api().get(servicePath(before))).status).toBe(404);
      const order = (await e2e.mutations(since)).map((r) => r.method);
      expect(order.indexOf("DELETE")).toBeLessThan(order.indexOf("POST"));
      expect((await api().get(servicePath(after))).body.service).toMatchObject({ name: "web-v2", mode: "PINNED" });
      // PINNED: one pod per target instance.
      await expectRunning("web", 2);
    });

    it("secret name: a new secret, the service's reference follows, the old secret goes", async () => {
      const before = await e2e.idOf("creds");
      const serviceId = await e2e.idOf("web");
      creds = { ...creds, name: "app-creds-v2" };
      const result = await e2e.up(declarations());
      expect(changes(result)).toEqual({ same: 4, replace: 1, update: 1 });
      const after = await e2e.idOf("creds");
      expect(after).not.toBe(before);
      const secrets = await secretsInApi();
      expect(secrets.map((s) => s.id)).not.toContain(before);
      expect(secrets.find((s) => s.id === after)).toMatchObject({ name: "app-creds-v2", keys: ["DB_PASSWORD", "DB_USER"] });
      expect(await e2e.idOf("web")).toBe(serviceId);
      expect((await api().get(servicePath(serviceId))).body.service.secret_refs).toEqual(["app-creds-v2"]);
    });

    it("node instanceId: another instance joins, the old node drains and goes", async () => {
      const before = await e2e.idOf("node-b");
      nodeB = 2;
      webArgs = { ...webArgs, targetInstanceIds: [vm[0], vm[2]] };
      const result = await e2e.up(declarations());
      expect(changes(result)).toEqual({ same: 4, replace: 1, update: 1 });
      const after = await e2e.idOf("node-b");
      expect(after).not.toBe(before);
      expect((await api().get(`/v1/workspaces/${wid}/k3s/nodes/${before}`)).status).toBe(404);
      expect((await api().get(`/v1/instances/${vm[1]}/k3s`)).status).toBe(404);
      expect((await api().get(`/v1/instances/${vm[2]}/k3s`)).body.node).toMatchObject({ id: after, status: "READY" });
      expect(await e2e.outputsOf("node-b")).toMatchObject({ instanceId: vm[2], status: "READY", ready: true });
      await expectRunning("web", 2);
    });
  });

  it("refresh reads an image changed outside Pulumi, and the next up restores the declaration", async () => {
    const id = await e2e.idOf("web");
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
    expect(await e2e.emu.waitWorkflow(put.body.id)).toBe("COMPLETED");
    await e2e.refresh();
    expect((await e2e.outputsOf("web")).image).toBe("nginx:1.29");
    const since = await e2e.lastSeq();
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 5, update: 1 });
    expect(await e2e.idOf("web")).toBe(id);
    const puts = writes(await e2e.mutations(since), "PUT", servicePath(id));
    expect(puts).toHaveLength(1);
    // The full desired state goes back, including the write-only environment the outside PUT cleared.
    expect(puts[0].body).toMatchObject({ image: "nginx:1.28", environment: { LOG_LEVEL: "debug", FEATURE_X: "on" } });
    expect((await api().get(servicePath(id))).body.service.image).toBe("nginx:1.28");
    await expectRunning("web", 2);
  });

  it("refresh notices secret keys changed outside Pulumi, and the next up writes the declared data again", async () => {
    const id = await e2e.idOf("creds");
    expect((await api().put(`/v1/workspaces/${wid}/k3s/secrets/${id}`, { data: { OTHER: "x" } })).status).toBe(200);
    await e2e.refresh();
    expect((await e2e.outputsOf("creds")).keys).toEqual(["OTHER"]);
    const preview = await e2e.preview(declarations());
    expect(preview.changeSummary).toEqual({ same: 5, update: 1 });
    const since = await e2e.lastSeq();
    await e2e.up(declarations());
    expect((await e2e.mutations(since)).map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /v1/workspaces/${wid}/k3s/secrets/${id}`]);
    expect((await secretsInApi()).find((s) => s.id === id)?.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect((await e2e.outputsOf("creds")).keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect((await e2e.preview(declarations())).changeSummary).toEqual({ same: 6 });
  });

  it("adopts an existing secret by adoptId and writes the declared data (values cannot be compared)", async () => {
    const existing = await api().post(`/v1/workspaces/${wid}/k3s/secrets`, { name: "legacy-creds", data: { TOKEN: "old-value" } });
    expect(existing.status).toBe(201);
    // data given in plain: the class makes it a secret itself.
    extras = [
      {
        type: "K3sSecret",
        name: "legacy",
        args: { name: "legacy-creds", data: { TOKEN: "new-value" }, adoptId: existing.body.id },
        opts: { dependsOn: ["cluster"] },
      },
    ];
    const since = await e2e.lastSeq();
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 6, create: 1 });
    expect(await e2e.idOf("legacy")).toBe(existing.body.id);
    const mutations = await e2e.mutations(since);
    // Same key names, yet the values are unknown: adoption converges them with one PUT, no POST.
    expect(mutations.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /v1/workspaces/${wid}/k3s/secrets/${existing.body.id}`]);
    expect((await e2e.outputsOf("legacy")).keys).toEqual(["TOKEN"]);
    expect(await e2e.rawState()).not.toContain("new-value");
    const stored = await e2e.resource("legacy");
    expect(markedSecret(stored.inputs.data)).toBe(true);
    expect(markedSecret(stored.outputs.data)).toBe(true);
    expect((await e2e.preview(declarations())).changeSummary).toEqual({ same: 7 });
  });

  it("refresh drops a service and a secret deleted outside Pulumi, and the next up recreates them", async () => {
    const serviceId = await e2e.idOf("web");
    const legacyId = await e2e.idOf("legacy");
    const del = await api().delete(servicePath(serviceId));
    expect(del.status).toBe(202);
    expect(await e2e.emu.waitWorkflow(del.body.id)).toBe("COMPLETED");
    expect((await api().delete(`/v1/workspaces/${wid}/k3s/secrets/${legacyId}`)).status).toBe(204);
    await e2e.refresh();
    const urns = (await e2e.state()).map((r) => r.urn);
    expect(urns).not.toContainEqual(expect.stringMatching(/::web$/));
    expect(urns).not.toContainEqual(expect.stringMatching(/::legacy$/));
    // The adopted secret is gone: recreate it (adoptId would point at nothing).
    extras = [
      {
        type: "K3sSecret",
        name: "legacy",
        args: { name: "legacy-creds", data: secret({ TOKEN: "new-value" }) },
        opts: { dependsOn: ["cluster"] },
      },
    ];
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 5, create: 2 });
    expect(await e2e.idOf("web")).not.toBe(serviceId);
    expect(await e2e.idOf("legacy")).not.toBe(legacyId);
    expect((await secretsInApi()).find((s) => s.name === "legacy-creds")?.keys).toEqual(["TOKEN"]);
    await expectRunning("web", 2);
  });

  it("refuses to delete a secret a service still references: the API's 409 reason, with what to do", async () => {
    const secretId = await e2e.idOf("creds");
    // Drop only the secret from the declaration; the service keeps naming it.
    const withoutSecret = declarations()
      .filter((d) => d.name !== "creds")
      .map((d) => (d.name === "web" ? { ...d, args: { ...webArgs, secretRefs: [creds.name] } } : d));
    const message = await e2e.upFails(withoutSecret);
    expect(message).toMatch(
      /K3sSecret "app-creds-v2": the API refuses to delete secret \d+ \(409: The secret is referenced by service web-v2/,
    );
    expect(message).toMatch(/Service web-v2 still lists "app-creds-v2" in secret_refs: remove the reference first/);
    expect((await secretsInApi()).map((s) => s.id)).toContain(secretId);
    expect(await e2e.idOf("creds")).toBe(secretId);
    // Declaring it again is a no-op: nothing was lost.
    const since = await e2e.lastSeq();
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 7 });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("deletes a service whose create workflow FAILED, keeping nothing, and the next up creates it", async () => {
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/k3s/services",
      times: 1,
    });
    extras = [
      ...extras,
      {
        type: "K3sService",
        name: "batch",
        args: { name: "batch", image: "busybox:1.36", mode: "PINNED", targetInstanceIds: [vm[0]] },
        opts: { dependsOn: ["node-a"] },
      },
    ];
    const message = await e2e.upFails(declarations());
    expect(message).toMatch(/K3sService "batch": create failed: workflow k3s-service-deploy \d+ ended FAILED/);
    const failedId = /The K3sService it made \(id (\d+)\) ended FAILED.*?, which a later up would replace, so it was deleted/.exec(
      message,
    )?.[1];
    expect(failedId).toMatch(/^\d+$/);
    expect((await e2e.state()).some((r) => r.urn.endsWith("::batch"))).toBe(false);
    expect((await api().get(servicePath(failedId!))).status).toBe(404);

    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 7, create: 1 });
    expect(await e2e.idOf("batch")).not.toBe(failedId);
    await expectRunning("batch", 1);
  });

  it("recovers from a service create whose answer was lost: found by name, adopted, not duplicated", async () => {
    await e2e.emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/k3s/services", times: 1 });
    extras = [
      ...extras,
      {
        type: "K3sService",
        name: "worker",
        args: { name: "worker", image: "busybox:1.36", mode: "PINNED", targetInstanceIds: [vm[2]] },
        opts: { dependsOn: ["node-b"] },
      },
    ];
    const since = await e2e.lastSeq();
    const result = await e2e.up(declarations());
    expect(changes(result)).toEqual({ same: 8, create: 1 });
    expect(writes(await e2e.mutations(since), "POST", `/v1/workspaces/${wid}/k3s/services`)).toHaveLength(1);
    const listed = (await api().get(`/v1/workspaces/${wid}/k3s/services`, { name: "worker" })).body.items;
    expect(listed).toHaveLength(1);
    expect(await e2e.idOf("worker")).toBe(listed[0].service.id);
    await expectRunning("worker", 1);
  });

  it("destroy leaves no cluster, node, service or secret in the emulator", async () => {
    await e2e.destroy();
    const inventory = await e2e.inventoryTotal();
    expect(inventory.resources.k3sClusters).toEqual([]);
    expect(inventory.resources.k3sNodes).toEqual([]);
    expect(inventory.resources.k3sServices).toEqual([]);
    expect(inventory.resources.k3sSecrets).toEqual([]);
    expect(await e2e.state()).toEqual([]);
  });
});
