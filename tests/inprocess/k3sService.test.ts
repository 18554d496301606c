/**
 * K3sService on both faces, in process (tests/support/inProcess.ts), on the cluster of
 * tests/inprocess/support/k3s.ts: every updateRequest field in one PUT of the full desired state
 * (settled again), each replace field (a new name created first, a kept name deleted first and
 * why, a name left out made anew and created first), an
 * image changed outside Pulumi read and put back under the same id, a failed and a lost create. Its
 * create and its no-change diff are k3sCluster.test.ts's; a service deleted outside Pulumi and the
 * secret it lists are k3sSecret.test.ts's. The refusals at preview are
 * tests/unit/resources/k3sService.test.ts.
 */
import { CallError, describeEachFace, type Logged, type Props, up } from "../support/inProcess";
import { k3sHarness } from "./support/k3s";
import { setProgressSink } from "../../provider/runtime/progress";

// Progress lines (why a replacement deletes first) are collected, not printed.
const progress: string[] = [];
setProgressSink((line) => progress.push(line));

describeEachFace("K3sService", (ctx) => {
  const { env, state, api, writes, upLogged, refresh, outsOf, servicePath, expectRunning, d, node, setup, stack } = k3sHarness(ctx);

  beforeAll(async () => {
    await setup();
    await stack();
    // A node on c too, for the service pinned there.
    await upLogged("node-c", "K3sNode", node(env.vm[2]));
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
        () => ({ targetInstanceIds: [env.vm[0]] }),
        (s) => expect((s.target_instances as Array<{ id: string }>).map((t) => t.id)).toEqual([env.vm[0]]),
        3,
      ],
    ];

    it.each(steps)("%s", async (_field, change, check, replicas) => {
      const id = state.web.id;
      d.web = { ...d.web, ...change() };
      const { step, now, mutations: sent } = await upLogged("web", "K3sService", d.web);
      expect({ step, id: now.id }).toEqual({ step: "update", id });
      expect(writes(sent)).toEqual([`PUT ${servicePath(id)}`]);
      check((await api().get(servicePath(id))).body.service, sent[0]);
      await expectRunning("web", replicas);
    });
  });

  describe("replaces on each replace field (new id, the old one gone from the API)", () => {
    it("service name: the new service is created before the old one goes", async () => {
      const before = state.web.id;
      d.web = { ...d.web, name: "web-v2" };
      const { step, diff, now, mutations: sent } = await upLogged("web", "K3sService", d.web);
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
      d.web = { ...d.web, mode: "PINNED", targetInstanceIds: [env.vm[0], env.vm[1]] };
      const { step, diff, now, mutations: sent } = await upLogged("web", "K3sService", d.web);
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
      expect(progress).toContainEqual(expect.stringContaining("replaced by deleting it first: its name is declared and unique"));
    });

    it("service mode, the name left out: kept until the replacement, which is named anew and created first", async () => {
      const { name: _declared, ...unnamed } = d.web;
      d.web = unnamed;
      const kept = await upLogged("web", "K3sService", d.web);
      expect({ step: kept.step, name: kept.now.inputs.name, writes: kept.mutations }).toEqual({ step: "same", name: "web-v2", writes: [] });
      const before = state.web.id;
      d.web = { ...d.web, mode: "SPREAD", replicas: 2 };
      const { step, diff, now, mutations: sent } = await upLogged("web", "K3sService", d.web);
      expect({ step, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({ step: "replace", deleteBeforeReplace: false });
      const order = sent.map((r) => r.method);
      expect(order.indexOf("POST")).toBeLessThan(order.indexOf("DELETE"));
      expect((await api().get(servicePath(before))).status).toBe(404);
      expect((await api().get(servicePath(now.id))).body.service).toMatchObject({
        name: expect.stringMatching(/^web-[0-9a-f]{7}$/),
        mode: "SPREAD",
      });
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
    const { step, now, mutations: sent } = await upLogged("web", "K3sService", d.web);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PUT ${servicePath(id)}`]);
    // The full desired state goes back, including the write-only environment the outside PUT cleared.
    expect(sent[0].body).toMatchObject({ image: "nginx:1.28", environment: { LOG_LEVEL: "debug", FEATURE_X: "on" } });
    expect((await api().get(servicePath(id))).body.service.image).toBe("nginx:1.28");
    await expectRunning("web", 2);
  });

  it("deletes a service whose create workflow FAILED, keeping nothing; the next up creates it", async () => {
    await ctx().emu.control.post("/_emulator/faults", {
      kind: "workflow",
      outcome: "FAILED",
      method: "POST",
      path: "/v1/workspaces/*/k3s/services",
      times: 1,
    });
    const batch = { name: "batch", image: "busybox:1.36", mode: "PINNED", targetInstanceIds: [env.vm[0]] };
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
      targetInstanceIds: [env.vm[2]],
    });
    expect(step).toBe("create");
    expect(writes(sent).filter((w) => w === `POST /v1/workspaces/${env.wid}/k3s/services`)).toHaveLength(1);
    const listed = (await api().get(`/v1/workspaces/${env.wid}/k3s/services`, { name: "worker" })).body.items;
    expect(listed).toHaveLength(1);
    expect(state.worker.id).toBe(String(listed[0].service.id));
    await expectRunning("worker", 1);
  });
});
