/**
 * RecipeInstallation on both faces, in process (tests/support/inProcess.ts): fields the recipe does
 * not take refused at create before any install request, the recorded installation kept, and a
 * change of fields re-installing (a new installation first, the old one forgotten: the API has no
 * uninstall). Its create, its no-change diff, deletion outside Pulumi, a failed install and its
 * delete are app.test.ts's cases, which install it beside the apps (tests/inprocess/support/apps.ts:
 * what they share). The refusals at preview are tests/unit/resources/recipeInstallation.test.ts.
 */
import { describeEachFace, type Props } from "../support/inProcess";
import { PASSWORD, PASSWORD_2, appsHarness, collectNotices, helloRecipe, runningInstance } from "./support/apps";

const notices = collectNotices();

describeEachFace("RecipeInstallation", (ctx) => {
  const { state, writes, upLogged, upFails, outsOf, declaredSecret, secretsOn } = appsHarness(ctx);
  let vm: string;
  let installFields: Props = { GREETING: "hello", TOKEN: PASSWORD, COUNT: 3 };
  const installation = () => ({ instanceId: vm, recipeId: state.rcp.id, fields: declaredSecret(installFields) });

  beforeAll(async () => {
    vm = await runningInstance(ctx, "install-vm");
    // The recipe under its second name, the one the re-installed installation records.
    await upLogged("rcp", "Recipe", { ...helloRecipe(), name: "hello-recipe-2" });
    await upLogged("inst", "RecipeInstallation", installation());
  });

  it("refuses at create an installation whose fields do not match the recipe, before the install request, keeping the recorded one", async () => {
    const recorded = state.inst;
    installFields = { TOKEN: PASSWORD_2, COUNT: "many", NOPE: "x" };
    const { err, mutations: sent } = await upFails("inst", "RecipeInstallation", installation());
    expect(err.message).toMatch(/fields\.NOPE: the recipe has no such field/);
    expect(err.message).toMatch(/fields\.GREETING: required/);
    expect(err.message).toMatch(/fields\.COUNT: must be a number/);
    expect(err.message).not.toContain(PASSWORD_2);
    expect(err.kept).toBeUndefined();
    expect(sent).toEqual([]);
    // The replacement was never made: the recorded installation is still the one a read finds.
    expect((await ctx().face.read("RecipeInstallation", recorded.id, recorded.outs, recorded.inputs)).id).toBe(recorded.id);
  });

  it("re-installs when the fields change: a new installation first, then the old one forgotten (the API has no uninstall)", async () => {
    const before = state.inst.id;
    installFields = { GREETING: "hello again", TOKEN: PASSWORD_2, COUNT: "5" };
    const { step, diff, mutations: sent } = await upLogged("inst", "RecipeInstallation", installation());
    expect({ step, replaces: diff?.replaces, deleteBeforeReplace: diff?.deleteBeforeReplace }).toEqual({
      step: "replace",
      replaces: ["fields"],
      deleteBeforeReplace: false,
    });
    expect(writes(sent)).toEqual(["POST /v1/commands/install-recipe"]);
    expect(state.inst.id).not.toBe(before);
    const { outs, secrets } = outsOf("inst");
    expect(outs).toMatchObject({ installState: "COMPLETED", recipeName: "hello-recipe-2" });
    expect(secrets).toEqual(secretsOn(["fields"]));
    expect(notices).toContainEqual(expect.stringContaining(`the API has no uninstall: forgetting installation ${before}`));
  });
});
