/**
 * What an import records and a generated program declares (provider/lifecycle/declaration.ts),
 * kind by kind, against a workspace made by hand through the API (tests/e2e/handmade.ts): every
 * object the kinds' lists find is read, its declaration passes check, and that declaration diffs
 * clean against what was read, so `pulumi preview` right after an import shows no change. The
 * write-only and secret inputs no read gives are the import's config secrets (a placeholder here).
 */
import { buildLifecycle, type Lifecycle } from "../../../provider/lifecycle";
import { createRuntime } from "../../../provider/configure/providerRuntime";
import { kinds, definitionOf } from "../../../resources/kinds";
import { makeHandmadeWorkspace, type Handmade } from "../../e2e/handmade";
import { useTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { compile, leftOut } from "../../../provider/lifecycle/compile";
import { configSecretsOf } from "../../../importer/secrets";

let t: TestEmulator;
useTestEmulator((emulator) => (t = emulator), { workflowMs: 20 }, { resetEachTest: false });

function lifecycleOf(kind: string): Lifecycle {
  const runtime = createRuntime();
  const config: Record<string, string> = { "svc:baseUrl": t.emu.url, "svc:token": t.emu.token, "svc:workspaceId": t.workspaceId };
  runtime.setSources({ get: (key) => config[key], env: {} });
  return buildLifecycle(definitionOf(kind), runtime);
}

/**
 * The secret inputs a person sets from config after an import, as svc-import lists them for the
 * object (importer/secrets.ts), with the values the workspace was made with.
 */
function secretsOf(kind: string, outputs: Record<string, unknown>, made: Handmade): Record<string, unknown> {
  const values: Record<string, string> = {
    "RegistryCredential.password": made.secrets.registryPassword,
    "K3sSecret.data.DB_PASSWORD": made.secrets.secretData.DB_PASSWORD,
    "K3sSecret.data.API_KEY": made.secrets.secretData.API_KEY,
    "BgpConfig.password": made.secrets.bgpPassword,
    "App.environment.GREETING": APP_ENVIRONMENT.GREETING,
  };
  const c = compile(definitionOf(kind));
  const secrets = configSecretsOf(kind, "x", c.definition.fields, outputs, (f) => leftOut(c, f).kind === "required");
  const inputs: Record<string, unknown> = {};
  for (const s of secrets) {
    const value = values[[kind, s.field, s.mapKey].filter(Boolean).join(".")];
    if (s.mapKey === undefined) inputs[s.field] = value;
    else inputs[s.field] = { ...((inputs[s.field] as object) ?? {}), [s.mapKey]: value };
  }
  return inputs;
}

const APP_ENVIRONMENT = { GREETING: "hello" };

/** The kinds the end-to-end workspace leaves out (each run there would cost every language's test): made here too. */
async function makeMore(made: Handmade): Promise<Record<string, number>> {
  const ws = `/v1/workspaces/${t.workspaceId}`;
  const done = async (answer: { status: number; body: { id?: string; workflow?: { id: string } } }) => {
    expect(answer.status).toBeLessThan(300);
    expect(await t.waitWorkflow(String(answer.body.workflow?.id ?? answer.body.id))).toBe("COMPLETED");
  };
  await done(
    await t.api.post(`/v1/instances/${made.ids.web2}/apps`, {
      name: "greeter",
      image: "nginx:1.27",
      environment: APP_ENVIRONMENT,
      ports: [{ host_port: 8081, container_port: 80, protocol: "TCP", http: false }],
    }),
  );
  const template = (await t.api.get("/v1/app-templates", { name: "Whoami" })).body.items[0];
  await done(await t.api.post(`/v1/instances/${made.ids.web2}/apps/from-template`, { template_id: String(template.id), name: "whoami" }));
  await done(
    await t.api.post(`${ws}/images`, {
      kind: "TEMPLATE",
      name: "golden-image",
      source: { type: "URL", url: "https://images.example.com/golden.qcow2" },
    }),
  );
  await done(await t.api.post("/v1/commands/create-snapshot", { instance_id: BigInt(made.ids.db1) }));
  expect((await t.api.post(`${ws}/invites`, { email: "new.member@example.com", access_level: "VIEWER" })).status).toBe(201);
  const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
  expect((await t.api.post(`${ws}/tokens`, { name: "deploy-bot", expires, grants: { INSTANCE: "READ" } })).status).toBe(201);
  return { App: 2, Image: 1, Snapshot: 1, WorkspaceInvite: 1, ApiToken: 1 };
}

describe("the declaration of each object of a workspace made by hand", () => {
  let made: Handmade;
  beforeAll(async () => {
    made = await makeHandmadeWorkspace(t);
    made.counts = { ...made.counts, ...(await makeMore(made)) };
  }, 120_000);

  const listable = kinds().filter((k) => definitionOf(k).api.list);

  it.each(listable)("%s: each object passes check and diffs clean", async (kind) => {
    const lifecycle = lifecycleOf(kind);
    const found = (await lifecycle.list!(t.workspaceId)).filter((o) => !o.leftOut);
    expect(found.length).toBe(made.counts[kind] ?? 0);
    for (const object of found) {
      const read = await lifecycle.read(object.id, {});
      expect(read.id).toBe(object.id);
      const declared = { ...lifecycle.declarationOf(read.props!), ...secretsOf(kind, read.props!, made) };
      const checked = await lifecycle.check(declared, declared);
      expect({ kind, id: object.id, failures: checked.failures ?? [] }).toEqual({ kind, id: object.id, failures: [] });
      const diff = await lifecycle.diff(object.id, read.props!, checked.inputs);
      expect({ kind, id: object.id, declared, changed: diff.detailedDiff }).toEqual({ kind, id: object.id, declared, changed: {} });
      expect(diff.changes).toBe(false);
    }
  });

  it("an adopted k3s service is not updated while its environment is undeclared: the PUT would clear what the API never returns", async () => {
    const service = lifecycleOf("K3sService");
    const read = await service.read(made.ids.shop, {});
    const declared = service.declarationOf(read.props!);
    const { inputs } = await service.check(declared, { ...declared, image: "ghcr.io/acme/shop:1.5" });
    expect((await service.diff(made.ids.shop, read.props!, inputs)).detailedDiff).toEqual({ image: { kind: "update", replace: false } });
    const since = t.emu.services.requestLog.lastSeq;
    await expect(service.update(made.ids.shop, read.props!, inputs)).rejects.toThrow(
      /the service was adopted, and the API never returns a service's environment .* Declare environment/,
    );
    expect(t.emu.services.requestLog.list({ since }).filter((r) => r.method !== "GET")).toEqual([]);
    // Declared, it is sent with the change.
    const withEnvironment = { ...inputs, environment: made.secrets.serviceEnvironment };
    await service.update(made.ids.shop, read.props!, withEnvironment);
    expect((await t.api.get(`/v1/workspaces/${t.workspaceId}/k3s/services/${made.ids.shop}`)).body.service.image).toBe(
      "ghcr.io/acme/shop:1.5",
    );
  });
});
