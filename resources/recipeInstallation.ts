/**
 * RecipeInstallation — a recipe run on an instance (spec part 2, Instance commands: install-recipe).
 *
 *   POST /v1/commands/install-recipe   instance, recipe, fields (recipe field id -> value; {} when the
 *                                      recipe has none), all required; instance online and AVAILABLE -> workflow
 *
 * The API keeps no installation object: there is no id, read or uninstall. The resource's id is
 * synthetic, `<instance id>:<recipe id>:<workflow id>`; reading it checks that the instance and
 * the recipe still exist (otherwise it is gone) and reports the install workflow's state.
 * Every field replaces (re-installs); `pulumi destroy` only forgets the installation (what the
 * recipe did stays on the instance). Field values are secrets (PASSWORD fields): `fields` is kept
 * from state as a Pulumi secret, never read back.
 *
 * Field definitions (required, types) live in the recipe, known only from the API: they are
 * checked when the installation is created, before the install request, not at preview.
 * A lost install answer cannot be recovered (the API lists no installations), so the error asks
 * to check the instance before running again.
 */
import { z } from "../provider/fields/zod";
import type { OperationContext } from "../provider/context";
import { optionalWorkflowOf, workflowOf } from "../provider/client/envelope";
import { ApiError } from "../provider/errors";
import { computed, fieldSet, fromFields, input, type InputsOf, type OutputsOf, writeOnly } from "../provider/fields/declare";
import { outputsFromAnswer } from "../provider/fields/convert";
import { zId } from "../provider/fields/constraints";
import { wireId } from "../provider/client/wire";
import { type ResourceDefinition } from "../provider/definition";
import type { RecipeInstallationArgs, RecipeInstallationOutputs } from "./generated/recipeInstallation";
import { fetchRecipe, fieldsFromApi, type RecipeField } from "./recipe";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 2, install-recipe";

// 1. Inputs and outputs, each field declared once: type and limits, doc, what a change does, how it is read (provider/fields/declare.ts).
// Nothing can change in place: every input re-installs.
/** @internal */
export const recipeInstallationFields = fieldSet({
  instanceId: input(zId("instance id"), { doc: "Instance to install on (online and AVAILABLE).", onChange: replace }),
  recipeId: input(zId("recipe id"), { doc: "Recipe to run (platform-wide or the instance's workspace's).", onChange: replace }),
  // Field values may be PASSWORD fields: secret, and never read back.
  fields: writeOnly(
    z
      .record(
        z.string().min(1, `field ids must not be empty (${WHERE})`),
        z.union([z.string(), z.number(), z.boolean()], { error: `values must be strings, numbers or booleans (${WHERE}: fields object)` }),
      )
      .default({}),
    {
      doc:
        "Recipe field id -> value; omit (or {}) when the recipe has no fields. Checked against the recipe's fields (required, type) " +
        "when installing. Stored as a Pulumi secret (PASSWORD fields).",
      onChange: replace,
      secret: true,
    },
  ),
  recipeName: computed<string>({ doc: "The recipe's name.", stable: true }),
  workflowId: computed<string>({ doc: "The install-recipe workflow.", stable: true }),
  installState: computed<string>({
    doc: "The install workflow's state: QUEUED, RUNNING, COMPLETED, FAILED, ABORTED or TIMED_OUT (UNKNOWN once the API forgets it).",
  }),
});
type Inputs = InputsOf<typeof recipeInstallationFields>;
type Outputs = OutputsOf<typeof recipeInstallationFields>;
type FieldValue = string | number | boolean;

// 2. API mapping.
const syntheticId = (instanceId: string, recipeId: string, workflowId: string) => `${instanceId}:${recipeId}:${workflowId}`;

function parseId(id: string): { instanceId: string; recipeId: string; workflowId: string } | undefined {
  const m = /^(\d+):(\d+):(.+)$/.exec(id);
  return m ? { instanceId: m[1], recipeId: m[2], workflowId: m[3] } : undefined;
}

async function exists(ctx: OperationContext, path: string): Promise<boolean> {
  try {
    await ctx.client.get(path);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return false;
    throw err;
  }
}

/** One check per field type (spec part 2, Recipe fields: TEXT, PASSWORD, NUMBER, EMAIL, BOOLEAN). */
const TYPE_CHECKS: Record<RecipeField["type"], (v: FieldValue) => string | undefined> = {
  TEXT: (v) => (typeof v === "string" ? undefined : "must be a string (TEXT)"),
  PASSWORD: (v) => (typeof v === "string" ? undefined : "must be a string (PASSWORD)"),
  NUMBER: (v) =>
    typeof v === "number" || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)))
      ? undefined
      : "must be a number (NUMBER)",
  EMAIL: (v) => (typeof v === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? undefined : "must be an email address (EMAIL)"),
  BOOLEAN: (v) =>
    typeof v === "boolean" || /^(true|false|yes|no|on|off|1|0)$/i.test(String(v)) ? undefined : "must be a boolean (BOOLEAN)",
};

/** The supplied values against the recipe's field definitions; every problem, named by field. */
function fieldProblems(definitions: RecipeField[], supplied: Record<string, FieldValue>): string[] {
  const problems: string[] = [];
  const known = new Set(definitions.map((f) => f.id));
  for (const id of Object.keys(supplied))
    if (!known.has(id)) problems.push(`fields.${id}: the recipe has no such field (fields: ${[...known].join(", ") || "none"})`);
  for (const f of definitions) {
    const v = supplied[f.id];
    if (v === undefined || v === "") {
      if (f.required) problems.push(`fields.${f.id}: required (${f.label})`);
      continue;
    }
    const why = TYPE_CHECKS[f.type](v);
    if (why) problems.push(`fields.${f.id}: ${why}`);
  }
  return problems;
}

const FAILED = new Set(["FAILED", "ABORTED", "TIMED_OUT"]);

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const recipeInstallationDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "RecipeInstallation",
  doc: "A recipe installed on an instance. The API has no uninstall: destroy only forgets it; any change re-installs (a new installation replaces the recorded one).",
  ...fromFields(recipeInstallationFields),
  label: (i) => `RecipeInstallation of recipe ${i.recipeId ?? "?"} on instance ${i.instanceId ?? "?"}`,
  // A failed install is recorded so the next up runs it again.
  broken: (o) => FAILED.has(o.installState),
  pricing: { notMetered: "runs on its instance, which is priced as an Instance" },
  api: {
    async create(ctx, i) {
      const recipe = await fetchRecipe(ctx, i.recipeId);
      if (!recipe) throw new Error(`${ctx.label}: recipeId ${i.recipeId}: no such recipe is visible to this token`);
      const problems = fieldProblems(fieldsFromApi(recipe), i.fields);
      if (problems.length)
        throw new Error(
          `${ctx.label}: the fields do not match recipe "${recipe.name}": ${problems.join("; ")} (${WHERE}; the recipe's field definitions are only known from the API, so this is checked at create, not at preview)`,
        );
      let instance: { state?: string; online?: boolean };
      try {
        instance = await ctx.client.get(`/v1/instances/${i.instanceId}`);
      } catch (err) {
        if (err instanceof ApiError && err.notFound) throw new Error(`${ctx.label}: instanceId ${i.instanceId}: no such instance`);
        throw err;
      }
      if (instance.state !== "AVAILABLE" || !instance.online) {
        throw new Error(
          `${ctx.label}: instance ${i.instanceId} is ${instance.state}, ${instance.online ? "online" : "offline"}: a recipe installs only on an instance that is online and AVAILABLE (${WHERE}); start it (powerState: "running") and run pulumi up again`,
        );
      }
      const answer = await ctx.client.post("/v1/commands/install-recipe", {
        instance: wireId(i.instanceId),
        recipe: wireId(i.recipeId),
        fields: i.fields,
      });
      const workflow = workflowOf(answer);
      return { id: syntheticId(i.instanceId, i.recipeId, workflow.id), workflow };
    },
    async get(ctx, id) {
      const parts = parseId(id);
      if (!parts) return undefined;
      if (!(await exists(ctx, `/v1/instances/${parts.instanceId}`))) return undefined;
      const recipe = await fetchRecipe(ctx, parts.recipeId);
      if (!recipe) return undefined;
      let installState = "UNKNOWN";
      try {
        installState = optionalWorkflowOf(await ctx.client.get(`/v1/workflows/${parts.workflowId}`))?.state ?? "UNKNOWN";
      } catch (err) {
        if (!(err instanceof ApiError && err.notFound)) throw err;
      }
      // The installation as gathered: the synthetic id's parts, the recipe's name, the workflow's state.
      return outputsFromAnswer(recipeInstallationFields, { ...parts, recipeName: recipe.name, installState });
    },
    settled: (o) =>
      FAILED.has(o.installState)
        ? `install workflow ${o.workflowId} ended ${o.installState}`
        : o.installState !== "QUEUED" && o.installState !== "RUNNING",
    stateOf: (o) => o.installState,
    async delete(ctx, id) {
      ctx.notice(`the API has no uninstall: forgetting installation ${id}; what the recipe did stays on the instance`);
      return null;
    },
    // Nothing to wait for after the (no-op) delete.
    isGone: () => true,
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/recipeInstallation.ts).
export type { RecipeInstallationArgs, RecipeInstallationOutputs };
