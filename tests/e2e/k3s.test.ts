/**
 * Managed Kubernetes through the real pulumi engine, in two `pulumi up`s: what only the engine and
 * a program prove. A K3sSecret's data, given in plain, is recorded secret (input and output) and
 * never reaches the state file in plaintext, while its key names stay readable; and when a
 * secret's name changes, the engine creates the new secret, updates the service whose secretRefs
 * follow its name output, and only then deletes the old one, which the API would refuse (409)
 * while the service still lists it.
 *
 * Every per-kind behaviour of K3sCluster, K3sNode, K3sService and K3sSecret (creates, each
 * in-place change in its PUT, replacements, drift, deletion, adoption, failed and lost creates, the
 * API's refusals, the data the plugin marks secret) is tests/inprocess/k3s{Cluster,Node,Service,Secret}.test.ts, on both faces;
 * the refusals at preview are tests/unit/resources/k3s{Cluster,Node,Service,Secret}.test.ts.
 */
import { changes, markedSecret, ref, startE2E, writes, type Declaration, type E2E } from "./harness";

jest.setTimeout(600_000);

const PASSWORD = "pa55-Kube-e2e-7f3a9c";

describe("Managed Kubernetes through the real pulumi engine", () => {
  let e2e: E2E;
  let wid: string;
  /** A running instance, made through the API, that joins the cluster. */
  let vm: string;

  beforeAll(async () => {
    e2e = await startE2E("k3s");
    wid = e2e.emu.workspaceId;
    const plans = await e2e.emu.api.get("/v1/plans", { name: "lightning-2" });
    const plan = plans.body.items.find((p: { name: string }) => p.name === "lightning-2").id as string;
    const created = await e2e.emu.api.post(`/v1/workspaces/${wid}/instances`, {
      type: "PLAN",
      name: "k3s-a",
      region: "NA_01",
      plan: BigInt(plan),
    });
    expect(created.status).toBe(202);
    vm = String(created.body.resource.id);
    await e2e.emu.waitFor(`/v1/instances/${vm}`, (b: { state: string; online: boolean }) => b.state === "AVAILABLE" && b.online, 10_000);
  });
  afterAll(async () => {
    // stop() destroys the stack.
    await e2e?.stop();
  });

  // The declaration; the secret's name changes in the second case.
  let secretName = "app-creds";
  const declarations = (): Declaration[] => [
    { type: "K3sCluster", name: "cluster" },
    { type: "K3sNode", name: "node-a", args: { instanceId: vm }, opts: { dependsOn: ["cluster"] } },
    // data given in plain: the class makes it a secret itself.
    { type: "K3sSecret", name: "creds", args: { name: secretName, data: { DB_PASSWORD: PASSWORD } }, opts: { dependsOn: ["cluster"] } },
    {
      type: "K3sService",
      name: "web",
      args: { name: "web", image: "nginx:1.27", mode: "PINNED", targetInstanceIds: [vm], secretRefs: [ref("creds.name")] },
      opts: { dependsOn: ["node-a"] },
    },
  ];
  const servicePath = (id: string) => `/v1/workspaces/${wid}/k3s/services/${id}`;
  const secretsPath = () => `/v1/workspaces/${wid}/k3s/secrets`;

  it("keeps the secret's values out of the state file, marked secret as input and output, while its key names stay readable", async () => {
    expect(changes(await e2e.up(declarations()))).toEqual({ create: 5 }); // four resources and the stack
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

  it("renames a secret: the new secret first, then the service's reference follows, then the old secret goes", async () => {
    const before = await e2e.idOf("creds");
    const serviceId = await e2e.idOf("web");
    secretName = "app-creds-v2";
    const { result, mutations } = await e2e.upLogged(declarations());
    expect(changes(result)).toEqual({ same: 3, replace: 1, update: 1 });
    const after = await e2e.idOf("creds");
    expect(after).not.toBe(before);
    const steps = [`POST ${secretsPath()}`, `PUT ${servicePath(serviceId)}`, `DELETE ${secretsPath()}/${before}`];
    expect(writes(mutations).filter((w) => steps.includes(w))).toEqual(steps);
    const secrets = (await e2e.emu.api.get(secretsPath())).body.items as Array<{ id: string; name: string }>;
    expect(secrets.map((s) => s.id)).toEqual([after]);
    expect(await e2e.idOf("web")).toBe(serviceId);
    expect((await e2e.emu.api.get(servicePath(serviceId))).body.service.secret_refs).toEqual(["app-creds-v2"]);
  });
});
