/**
 * The preview harness: a definition's lifecycle built over a runtime that refuses any API use (check
 * and diff must never call the API or need its configuration), and readers of what check and
 * diff decide. Unit tests of resources call these instead of going through the pulumi CLI.
 */
import { buildLifecycle, type Lifecycle, type ProviderRuntime } from "../../provider/lifecycle";
import type { AnyDefinition } from "../../provider/definition";

type Props = Record<string, unknown>;

/** A runtime with no API behind it; `workspace` is the provider's default workspace (null: none configured). */
export const checkOnlyRuntime = (workspace: string | null = "42"): ProviderRuntime => ({
  config: () => {
    throw new Error("check and diff must not need the API configuration");
  },
  client: () => {
    throw new Error("check and diff must not call the API");
  },
  defaultWorkspace: () => workspace,
});

/** The lifecycle a definition builds, with no API behind it. */
export const checkOnly = (spec: unknown, workspace: string | null = "42"): Lifecycle =>
  buildLifecycle(spec as AnyDefinition, checkOnlyRuntime(workspace));

/** What `check` refuses in new inputs (no previous inputs: a create), as `{ property, reason }`. */
export async function failuresOf(spec: unknown, news: Props, olds: Props = {}): Promise<Array<{ property: string; reason: string }>> {
  const r = await checkOnly(spec).check!(olds, news);
  return (r.failures ?? []).map((f) => ({ property: f.property, reason: f.reason }));
}

/** What `check` refuses, one `property: reason` line each. */
export async function failureLines(spec: unknown, news: Props, olds: Props = {}): Promise<string[]> {
  return (await failuresOf(spec, news, olds)).map((f) => `${f.property}: ${f.reason}`);
}

/** What `check` records (inputs with defaults filled in) and what it refuses (`property: reason` lines). */
export async function check(spec: unknown, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: string[] }> {
  const r = await checkOnly(spec).check!(olds, news);
  return { inputs: r.inputs as Props, failures: (r.failures ?? []).map((f) => `${f.property}: ${f.reason}`) };
}

/** The inputs `check` records for a declaration it accepts (fails the test on any refusal). */
export async function recorded(spec: unknown, news: Props): Promise<Props> {
  const r = await check(spec, news);
  if (r.failures.length) throw new Error(`expected check to accept the declaration; it refused: ${r.failures.join("; ")}`);
  return r.inputs;
}

/** What `diff` decides between recorded outputs and new inputs: the three fields the engine acts on. */
export async function diff(
  spec: unknown,
  olds: Props,
  news: Props,
  id = "1",
): Promise<{ changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }> {
  const d = await checkOnly(spec).diff!(id, olds, news);
  return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
}
