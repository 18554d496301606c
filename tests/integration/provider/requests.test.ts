/**
 * What each operation asks the API, against the emulator over real HTTP: the requests the
 * provider benchmark counts per resource (bench/README.md), pinned down per kind so a change
 * that adds a request shows here, and the paths that still read where reading is needed.
 */
import { buildLifecycle, type Lifecycle } from "../../../provider/lifecycle";
import { createRuntime } from "../../../provider/configure/providerRuntime";
import { definitionOf } from "../../../resources/kinds";
import { useTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";

let t: TestEmulator;
useTestEmulator((emulator) => (t = emulator), { workflowMs: 0 });

const GiB = 1024 ** 3;

function lifecycleOf(kind: string): Lifecycle {
  const runtime = createRuntime();
  const config: Record<string, string> = { "svc:baseUrl": t.emu.url, "svc:token": t.emu.token, "svc:workspaceId": t.workspaceId };
  runtime.setSources({ get: (key) => config[key], env: {} });
  return buildLifecycle(definitionOf(kind), runtime);
}

/** "METHOD /path" for each /v1 request `run` made, ids as {id}. */
async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
  const since = t.emu.services.requestLog.lastSeq;
  await run();
  return t.emu.services.requestLog
    .list({ since })
    .filter((r) => r.path.startsWith("/v1/"))
    .map((r) => `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, "/{id}")}${r.status >= 400 ? ` ${r.status}` : ""}`);
}

const liveDisks = () => t.emu.services.store.t.disks.all().filter((d) => !(d as { seed?: boolean }).seed);

describe("requests per operation", () => {
  it("a Vpc is created with its POST alone (the answer is the VPC) and deleted with its DELETE alone", async () => {
    const vpc = lifecycleOf("Vpc");
    let created: { id?: string; outs?: Record<string, unknown> } = {};
    expect(
      await requestsOf(
        async () => (created = await vpc.create({ name: "net-one", description: "d", range: "10.9.0.0/16", workspaceId: t.workspaceId })),
      ),
    ).toEqual(["POST /v1/workspaces/{id}/vpcs"]);
    // What is recorded is what a read shows.
    expect(created.outs).toEqual((await vpc.read(created.id!, { workspaceId: t.workspaceId })).props);
    expect(await requestsOf(() => vpc.delete(created.id!, created.outs!))).toEqual(["DELETE /v1/vpcs/{id}"]);
    expect(t.emu.services.store.t.vpcs.get(created.id!)).toBeUndefined();
  });

  it("a Disk is created with its POST, the workflow and one read, and a detached one deleted without a read first", async () => {
    const disk = lifecycleOf("Disk");
    let created: { id?: string; outs?: Record<string, unknown> } = {};
    const create = await requestsOf(
      async () =>
        (created = await disk.create({
          name: "data",
          size: GiB,
          backend: "LOCAL",
          region: "NA_01",
          instanceId: null,
          workspaceId: t.workspaceId,
        })),
    );
    expect(create).toEqual(["POST /v1/workspaces/{id}/disks", "GET /v1/workflows/{id}", "GET /v1/disks/{id}"]);
    expect(created.outs).toMatchObject({ state: "AVAILABLE", instanceId: null });
    // A delete answered with a workflow is confirmed by a read (the API may show it a while longer).
    expect(await requestsOf(() => disk.delete(created.id!, created.outs!))).toEqual([
      "DELETE /v1/disks/{id}",
      "GET /v1/workflows/{id}",
      "GET /v1/disks/{id} 404",
    ]);
    expect(liveDisks()).toEqual([]);
  });

  it("a Disk recorded detached but attached outside Pulumi is detached when the API refuses its delete, then deleted", async () => {
    const disk = lifecycleOf("Disk");
    const created = await disk.create({
      name: "data",
      size: GiB,
      backend: "LOCAL",
      region: "NA_01",
      instanceId: null,
      workspaceId: t.workspaceId,
    });
    const plan = (await t.api.get("/v1/plans")).body.items.find((p: { disabled: boolean }) => !p.disabled);
    const vm = await t.api.post(`/v1/workspaces/${t.workspaceId}/instances`, {
      type: "PLAN",
      name: "vm",
      region: "NA_01",
      plan: BigInt(plan.id),
    });
    expect(await t.waitWorkflow(vm.body.workflow.id)).toBe("COMPLETED");
    const attach = await t.api.post(`/v1/disks/${created.id}/attach`, { instance_id: BigInt(vm.body.resource.id) });
    expect(await t.waitWorkflow(attach.body.id ?? attach.body.workflow?.id)).toBe("COMPLETED");

    const requests = await requestsOf(() => disk.delete(created.id!, created.outs!));
    expect(requests.slice(0, 3)).toEqual(["DELETE /v1/disks/{id} 409", "GET /v1/disks/{id}", "POST /v1/disks/{id}/detach"]);
    expect(requests).toContain("DELETE /v1/disks/{id}");
    expect(t.emu.services.store.t.disks.get(created.id!)).toBeUndefined();
  });
});
