/**
 * Preview checks without the engine: a spec's provider built over a runtime that refuses any API
 * use (check and diff must never call the API or need its configuration), with failures as
 * `{ property, reason }` pairs.
 */
import type * as pulumi from "@pulumi/pulumi";
import { buildProvider, type ProviderRuntime } from "../../provider/lifecycle";
import type { ResourceSpec } from "../../provider/spec";

export const checkOnlyRuntime = (workspace: string | null = "42"): ProviderRuntime => ({
  config: () => {
    throw new Error("check and diff must not need the API configuration");
  },
  client: () => {
    throw new Error("check and diff must not call the API");
  },
  defaultWorkspace: () => workspace,
});

/** The provider a spec builds, with no API behind it. */
export const checkOnly = (spec: unknown): pulumi.dynamic.ResourceProvider => buildProvider(spec as ResourceSpec, checkOnlyRuntime());

/** What `check` refuses in new inputs (no previous inputs: a create). */
export async function failuresOf(spec: unknown, news: Record<string, unknown>): Promise<Array<{ property: string; reason: string }>> {
  const r = await checkOnly(spec).check!({}, news);
  return (r.failures ?? []).map((f) => ({ property: f.property, reason: f.reason }));
}
