/**
 * What an import records and a generated program declares (provider/lifecycle/declaration.ts),
 * kind by kind, against a workspace made by hand through the API (tests/e2e/handmade.ts): every
 * object the kinds' lists find is read, its declaration passes check, and that declaration diffs
 * clean against what was read, so `pulumi preview` right after an import shows no change. The
 * write-only and secret inputs no read gives are the import's config secrets (a placeholder here).
 */
import { buildLifecycle, type Lifecycle } from "../../../provider/lifecycle";
import { createRuntime } from "../../../provider/runtime";
import { kinds, specFor } from "../../../resources/registry";
import { makeHandmadeWorkspace, type Handmade } from "../../e2e/handmade";
import { useTestEmulator, type TestEmulator } from "../../support/emulator";
import { undeclarable } from "../../../provider/lifecycle/declaration";
import { compile } from "../../../provider/lifecycle/compile";

let t: TestEmulator;
useTestEmulator((emulator) => (t = emulator), { workflowMs: 20 }, { resetEachTest: false });

function lifecycleOf(kind: string): Lifecycle {
  const runtime = createRuntime();
  const config: Record<string, string> = { "svc:baseUrl": t.emu.url, "svc:token": t.emu.token, "svc:workspaceId": t.workspaceId };
  runtime.setSources({ get: (key) => config[key], env: {} });
  return buildLifecycle(specFor(kind), runtime);
}

/** The secret inputs a person sets from config after an import: the values the workspace was made with. */
function secretsOf(kind: string, made: Handmade): Record<string, unknown> {
  const values: Record<string, Record<string, unknown>> = {
    RegistryCredential: { password: made.secrets.registryPassword },
    K3sSecret: { data: made.secrets.secretData },
    BgpConfig: { password: made.secrets.bgpPassword },
  };
  const secret = undeclarable(compile(specFor(kind))).filter((k) => specFor(kind).fields[k]?.secret);
  expect(Object.keys(values[kind] ?? {})).toEqual(secret);
  return values[kind] ?? {};
}

describe("the declaration of each object of a workspace made by hand", () => {
  let made: Handmade;
  beforeAll(async () => {
    made = await makeHandmadeWorkspace(t);
  }, 120_000);

  const listable = kinds().filter((k) => specFor(k).api.list);

  it.each(listable)("%s: each object passes check and diffs clean", async (kind) => {
    const lifecycle = lifecycleOf(kind);
    const found = (await lifecycle.list!(t.workspaceId)).filter((o) => !o.leftOut);
    expect(found.length).toBe(made.counts[kind] ?? 0);
    for (const object of found) {
      const read = await lifecycle.read(object.id, {});
      expect(read.id).toBe(object.id);
      const declared = { ...lifecycle.declarationOf(read.props!), ...secretsOf(kind, made) };
      const checked = await lifecycle.check(declared, declared);
      expect({ kind, id: object.id, failures: checked.failures ?? [] }).toEqual({ kind, id: object.id, failures: [] });
      const diff = await lifecycle.diff(object.id, read.props!, checked.inputs);
      expect({ kind, id: object.id, declared, changed: diff.detailedDiff }).toEqual({ kind, id: object.id, declared, changed: {} });
      expect(diff.changes).toBe(false);
    }
  });
});
