/**
 * What the k3s files share (tests/inprocess/k3s{Cluster,Node,Service,Secret}.test.ts): one
 * emulator's recorded state, three running instances, the declarations the cases change (a secret
 * and a service that lists it), the helpers that check a settled service and run a replacement the
 * way the engine orders it among its dependents, and `stack()`, which makes the cluster, two nodes,
 * the secret and the service for the files whose kind lives on them (what they are is
 * k3sCluster.test.ts's to prove).
 */
import { type InProcess, opened, type Props, type Recorded, type Logged, upRecorded } from "../../support/inProcess";

export const PASSWORD = "pa55-Kube-inproc-7f3a9c";
export const PASSWORD_2 = "rotated-Kube-inproc-b81d04";

/** One emulator's state and declarations for the k3s kinds; `setup()` in the file's beforeAll. */
export function k3sHarness(ctx: () => InProcess) {
  /** The workspace, and three running instances: a and b join first, c takes b's place later. */
  const env = { wid: "", vm: [] as string[] };
  const state: Record<string, Recorded> = {};
  const api = () => ctx().emu.api;
  const writes = (logged: Logged[]) => logged.map((r) => `${r.method} ${r.path}`);
  const upLogged = (name: string, kind: string, declared: Props) => upRecorded(ctx(), state, name, kind, declared);
  /** A refresh of one resource: the read's outputs (and, from the plugin, inputs) become the recorded state. */
  const refresh = async (name: string, kind: string): ReturnType<InProcess["face"]["read"]> => {
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
  const servicePath = (id: string) => `/v1/workspaces/${env.wid}/k3s/services/${id}`;
  const secretPath = (id: string) => `/v1/workspaces/${env.wid}/k3s/secrets/${id}`;
  const secretsInApi = async () =>
    (await api().get(`/v1/workspaces/${env.wid}/k3s/secrets`)).body.items as Array<{ id: string; name: string; keys: string[] }>;

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

  /** The declarations, changed case by case: the secret, and the service (declared once the secret is made). */
  const d: { creds: Props; web: Props } = { creds: { name: "app-creds", data: { DB_PASSWORD: PASSWORD } }, web: {} };
  const node = (instanceId: string) => ({ instanceId });
  /** The service as first declared: spread over a and b, listing the secret. */
  const declareWeb = (name = "web") => {
    d.web = {
      name,
      image: "nginx:1.27",
      mode: "SPREAD",
      targetInstanceIds: [env.vm[0], env.vm[1]],
      replicas: 2,
      ports: [{ hostPort: 8080, containerPort: 80, http: true }],
      environment: { LOG_LEVEL: "info" },
      secretRefs: [outsOf("creds").outs.name],
    };
  };

  /** The workspace and three running instances, made through the API. */
  async function setup() {
    env.wid = ctx().emu.workspaceId;
    const plans = (await api().get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
    const plan = plans.find((p) => p.name === "lightning-2")!.id;
    const created = await Promise.all(
      ["k3s-a", "k3s-b", "k3s-c"].map((name) =>
        api().post(`/v1/workspaces/${env.wid}/instances`, { type: "PLAN", name, region: "NA_01", plan: BigInt(plan) }),
      ),
    );
    for (const res of created) expect(res.status).toBe(202);
    env.vm = created.map((res) => String(res.body.resource.id));
    await Promise.all(
      env.vm.map((id) =>
        ctx().emu.waitFor(`/v1/instances/${id}`, (b: { state: string; online: boolean }) => b.state === "AVAILABLE" && b.online, 10_000),
      ),
    );
  }

  /** The cluster, nodes on a and b, the secret and the service (named `webName`), made in the engine's order. */
  async function stack(webName = "web") {
    await upLogged("cluster", "K3sCluster", {});
    await upLogged("node-a", "K3sNode", node(env.vm[0]));
    await upLogged("node-b", "K3sNode", node(env.vm[1]));
    await upLogged("creds", "K3sSecret", d.creds);
    declareWeb(webName);
    await upLogged("web", "K3sService", d.web);
  }

  return {
    env,
    state,
    api,
    writes,
    upLogged,
    refresh,
    outsOf,
    secretsOn,
    servicePath,
    secretPath,
    secretsInApi,
    replaceAround,
    expectRunning,
    d,
    node,
    declareWeb,
    setup,
    stack,
  };
}
