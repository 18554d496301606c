/**
 * check: the declaration's inputs, completed and validated at preview, before any API call, and
 * the resource options the call carries validated with them. Eight jobs in order: the default
 * workspace, the name where none is declared (autoname.ts), adoptId and the import option only for a new resource, the schema (with the values
 * unknown until up left out) and the definition's defaults, the transitions from the recorded
 * inputs, the cross-field rules, the provider's configuration, and an import's match with the
 * object it names (the one job that reads the API, only for an import).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isDeepStrictEqual } from "node:util";
import type { Outputs } from "../definition";
import { AUTONAMED_KEY, fillName } from "./autoname";
import { changedFields } from "./changes";
import { OPTIONS_KEY, schemaRelaxing, type CompiledDefinition } from "./compile";
import { importFailures } from "./importOption";
import { without } from "./operation";
import type { Call, CheckResult, Props, ProviderRuntime, ResourceOptions } from "./types";
import { containsUnknown } from "./unknowns";

type CheckFailure = pulumi.dynamic.CheckFailure;

export async function check<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  olds: Props,
  news: Props,
  call: Call = {},
): Promise<CheckResult> {
  const recorded = olds && Object.keys(olds).length ? olds : undefined;
  const raw = { ...news };
  const workspace = fillWorkspace(c, runtime, raw);
  const { autonamed } = c.definition;
  const named = fillName(autonamed, autonamed ? c.shape[autonamed] : undefined, call.naming, recorded, raw);
  const failures = [...workspace, ...named.failures];
  const options = adoptOnlyWhenNew(raw, call.options, recorded);
  const reported = [...(workspace.length ? ["workspaceId"] : []), ...named.relax];
  const parsed = validate(c, withOptions(raw, options), reported, call.optionsAt ?? "options");
  if (parsed.valid && named.marked) parsed.inputs[AUTONAMED_KEY] = true;
  failures.push(...parsed.failures);
  if (parsed.valid) failures.push(...transitionFailures(c, recorded, parsed.inputs), ...ruleFailures(c, parsed.inputs, parsed.unknown));
  const config = await configFailures(c, runtime, recorded, parsed.inputs, failures.length === 0);
  // 8. Only once everything else holds: an import's read would only repeat what is already wrong.
  const imported =
    failures.length || config.length || recorded ? [] : await importFailures(c, runtime, parsed.inputs, parsed.options, parsed.unknown);
  const result = { inputs: parsed.inputs, failures: [...config, ...failures, ...imported] };
  return parsed.options === undefined ? result : { ...result, options: parsed.options };
}

/** 1. A workspace-scoped kind's workspace: declared, else the provider's default, else a failure. */
function fillWorkspace<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  raw: Props,
): CheckFailure[] {
  if (!c.definition.workspaceScoped || raw.workspaceId !== undefined) return [];
  const ws = runtime.defaultWorkspace();
  if (ws) {
    raw.workspaceId = ws;
    return [];
  }
  return [{ property: "workspaceId", reason: "no workspace: set the workspaceId input, svc:workspaceId or SVC_WORKSPACE_ID" }];
}

/**
 * 3. Like the engine's import option, adoptId applies only while the resource is not in the stack
 * yet; once it is, a replacement must create anew, not re-adopt the id it deletes. The options as
 * they apply.
 */
function adoptOnlyWhenNew(raw: Props, options: ResourceOptions | undefined, recorded: Props | undefined): ResourceOptions | undefined {
  if (!recorded) return options;
  delete raw.adoptId;
  if (!options) return options;
  const { import: _imported, ...rest } = options;
  return rest;
}

/** The inputs with the options to validate beside them (compile.ts `OPTIONS_KEY`), when the call carries any. */
const withOptions = (raw: Props, options: ResourceOptions | undefined): Props =>
  options === undefined ? raw : { ...raw, [OPTIONS_KEY]: options };

interface Validated {
  /** The inputs to record: validated with defaults filled in and the unknown values kept, or as declared when invalid. */
  inputs: Props;
  /** The options, as validated (or as passed when invalid). */
  options: ResourceOptions | undefined;
  valid: boolean;
  failures: CheckFailure[];
  /** The inputs unknown until up. */
  unknown: string[];
}

/**
 * 4. The schema and the definition's defaults, over the inputs and the options. Unknown values are
 * validated at up; `reported` (a missing workspace, a name) was reported by jobs 1 and 2. A
 * failing option is named under `optionsAt`, where the face's resource carries it.
 */
function validate<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  raw: Props,
  reported: string[],
  optionsAt: string,
): Validated {
  const unknown = Object.keys(raw).filter((k) => containsUnknown(raw[k]));
  const relaxed = [...unknown, ...reported];
  const parsed = schemaRelaxing(
    c,
    relaxed.filter((k) => k in c.shape),
  ).safeParse(without(raw, ...unknown));
  if (!parsed.success) {
    const failures = parsed.error.issues.map((issue) => ({
      property: issuePath(issue.path[0] === OPTIONS_KEY ? [optionsAt, ...issue.path.slice(1)] : issue.path) || "(inputs)",
      reason: issue.message,
    }));
    return { ...apart(raw), valid: false, failures, unknown };
  }
  const withDefaults = c.definition.defaults ? { ...parsed.data, ...c.definition.defaults(parsed.data as Partial<I>) } : parsed.data;
  const validated = { ...withDefaults, ...Object.fromEntries(unknown.map((k) => [k, raw[k]])) };
  return { ...apart(validated), valid: true, failures: [], unknown };
}

/** The inputs and the options, apart again. */
function apart(props: Props): { inputs: Props; options: ResourceOptions | undefined } {
  const { [OPTIONS_KEY]: options, ...inputs } = props;
  return { inputs, options: options as ResourceOptions | undefined };
}

function issuePath(path: PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** 5. How a field may change from its recorded value (a disk cannot shrink). */
function transitionFailures<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  recorded: Props | undefined,
  inputs: Props,
): CheckFailure[] {
  if (!recorded) return [];
  const failures: CheckFailure[] = [];
  for (const t of c.definition.transitions ?? []) {
    const before = recorded[t.field];
    const after = inputs[t.field];
    if (before === undefined || after === undefined || containsUnknown(after) || isDeepStrictEqual(before, after)) continue;
    const reason = t.check(before, after);
    if (reason) failures.push({ property: t.field, reason });
  }
  return failures;
}

/** 6. The cross-field rules, each once every field it reads is known. */
function ruleFailures<I extends Props, O extends Outputs>(c: CompiledDefinition<I, O>, inputs: Props, unknown: string[]): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const rule of c.definition.rules ?? []) {
    if (rule.fields.some((f) => unknown.includes(f))) continue;
    const reason = rule.check(inputs as Partial<I>);
    if (reason) failures.push({ property: rule.property ?? rule.fields[0], reason });
  }
  return failures;
}

/**
 * 7. The provider's configuration, reported here so that preview fails on what up would fail on.
 * The API itself is asked (once per process) only when this resource's inputs are valid and the
 * plan will call it: a create, or a change. An unchanged stack, or a preview that only rejects
 * bad inputs, sends nothing.
 */
async function configFailures<I extends Props, O extends Outputs>(
  c: CompiledDefinition<I, O>,
  runtime: ProviderRuntime,
  recorded: Props | undefined,
  inputs: Props,
  inputsValid: boolean,
): Promise<CheckFailure[]> {
  const planned = !recorded || changedFields(c, recorded, inputs).length > 0;
  return (await runtime.preflight?.(inputsValid && planned)) ?? [];
}
