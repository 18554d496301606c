/**
 * RecipeInstallation: the policy table and the field check, through the lifecycle's check and diff
 * (which never call the API).
 */
import { checkOnly, failureLines } from "../../support/preview";
import { recipeInstallationSpec } from "../../../resources/recipeInstallation";

describe("RecipeInstallation", () => {
  it("an installation re-installs on any change, and a failed one is replaced", async () => {
    const olds = { instanceId: "1", recipeId: "2", fields: { A: "x" }, installState: "COMPLETED", workflowId: "3" };
    for (const [field, value] of Object.entries({ instanceId: "5", recipeId: "6", fields: { A: "y" } })) {
      const d = await checkOnly(recipeInstallationSpec).diff!("1:2:3", olds, { ...olds, [field]: value });
      // Installed anew before the old one is forgotten: a refused install leaves the recorded one.
      expect(d).toMatchObject({ replaces: [field], deleteBeforeReplace: false });
    }
    expect((await checkOnly(recipeInstallationSpec).diff!("1:2:3", { ...olds, installState: "FAILED" }, olds)).replaces).toEqual(["state"]);
    expect(
      (await failureLines(recipeInstallationSpec, { instanceId: "1", recipeId: "2", fields: { A: { nested: true } } })).join("\n"),
    ).toMatch(/fields\.A: values must be strings, numbers or booleans/);
  });
});
