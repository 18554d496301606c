/**
 * RecipeInstallation: the policy table and the field check, through the lifecycle's check and diff
 * (which never call the API).
 */
import { checkOnly, failureLines } from "../../support/preview";
import { recipeInstallationDefinition } from "../../../resources/recipeInstallation";
import { fakeContext, I1 } from "./support";

describe("RecipeInstallation", () => {
  it("an installation re-installs on any change, and a failed one is replaced", async () => {
    const olds = { instanceId: "1", recipeId: "2", fields: { A: "x" }, installState: "COMPLETED", workflowId: "3" };
    for (const [field, value] of Object.entries({ instanceId: "5", recipeId: "6", fields: { A: "y" } })) {
      const d = await checkOnly(recipeInstallationDefinition).diff!("1:2:3", olds, { ...olds, [field]: value });
      // Installed anew before the old one is forgotten: a refused install leaves the recorded one.
      expect(d).toMatchObject({ replaces: [field], deleteBeforeReplace: false });
    }
    expect((await checkOnly(recipeInstallationDefinition).diff!("1:2:3", { ...olds, installState: "FAILED" }, olds)).replaces).toEqual([
      "state",
    ]);
    expect(
      (await failureLines(recipeInstallationDefinition, { instanceId: "1", recipeId: "2", fields: { A: { nested: true } } })).join("\n"),
    ).toMatch(/fields\.A: values must be strings, numbers or booleans/);
  });
});

describe("RecipeInstallation API mapping (the state's shape)", () => {
  it("reads the synthetic id's parts, the recipe's name and the workflow's state, never the fields", async () => {
    const { ctx } = fakeContext({
      [`GET /v1/instances/${I1}`]: () => ({ id: I1 }),
      "GET /v1/recipes/4": () => ({ id: 4, name: "nginx", fields: [] }),
      "GET /v1/workflows/wf-1": () => ({ id: "wf-1", state: "COMPLETED" }),
    });
    expect(await recipeInstallationDefinition.api.get(ctx, `${I1}:4:wf-1`, {})).toStrictEqual({
      instanceId: I1,
      recipeId: "4",
      recipeName: "nginx",
      workflowId: "wf-1",
      installState: "COMPLETED",
    });
    expect(recipeInstallationDefinition.secretOutputs).toEqual(["fields"]);
    expect(recipeInstallationDefinition.keepFromState).toEqual(["fields"]);
  });
});
