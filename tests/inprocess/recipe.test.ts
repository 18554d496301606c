/**
 * Recipe on both faces, in process (tests/support/inProcess.ts), installed on an instance: the
 * check refusing a relative command path and an unknown field type, the in-place PATCH (lists
 * replace) that a read of its installation then names, and a create whose answer was lost found and
 * adopted. Its create and install, its no-change diff, deletion outside Pulumi, adoption and delete
 * are app.test.ts's cases, which make it beside the apps (tests/inprocess/support/apps.ts: what they
 * share). The refusals at preview are tests/unit/resources/recipe.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { PASSWORD, appsHarness, collectNotices, helloRecipe, runningInstance } from "./support/apps";

const notices = collectNotices();

describeEachFace("Recipe, installed on an instance", (ctx) => {
  const { state, api, get, lastSeq, mutations, writes, upLogged, refresh, outsOf, declaredSecret } = appsHarness(ctx);
  let wid: string;
  const recipe = helloRecipe();

  beforeAll(async () => {
    wid = ctx().emu.workspaceId;
    const vm = await runningInstance(ctx, "recipe-vm");
    await upLogged("rcp", "Recipe", recipe);
    await upLogged("inst", "RecipeInstallation", {
      instanceId: vm,
      recipeId: state.rcp.id,
      fields: declaredSecret({ GREETING: "hello", TOKEN: PASSWORD, COUNT: 3 }),
    });
  });

  it.each([
    [
      "a relative path of a recipe's command",
      "Recipe",
      () => ({ ...recipe, commands: [{ path: "install.sh" }] }),
      /^commands\[0\]\.path: must be an absolute script path/,
    ],
    [
      "a recipe field of an unknown type",
      "Recipe",
      () => ({ ...recipe, fields: [{ id: "A", label: "a", type: "DATE" }] }),
      /^fields\[0\]\.type: .*TEXT, PASSWORD, NUMBER, EMAIL or BOOLEAN/,
    ],
  ])("check refuses %s, naming the property, and sends nothing", async (_what, kind, declared, reason) => {
    const since = await lastSeq();
    const { failures } = await ctx().face.check(kind, declared());
    expect(failures.map((f) => `${f.property}: ${f.reason}`)).toContainEqual(expect.stringMatching(reason));
    expect(await mutations(since)).toEqual([]);
  });

  it("patches a recipe in place (lists replace); a read of its installation then names it anew", async () => {
    const id = state.rcp.id;
    Object.assign(recipe, {
      name: "hello-recipe-2",
      description: "Says hello, twice.",
      icon: "https://assets.example.com/hello.svg",
      commands: [
        { path: "/opt/hello/install.sh", args: [] },
        { path: "/opt/hello/again.sh", args: ["$SVC_FIELDS_GREETING"] },
      ],
      fields: [
        { id: "GREETING", label: "Greeting", type: "TEXT", required: true },
        { id: "TOKEN", label: "Token", type: "PASSWORD" },
        { id: "COUNT", label: "How many", type: "NUMBER" },
      ],
    });
    const { step, mutations: sent } = await upLogged("rcp", "Recipe", recipe);
    expect({ step, id: state.rcp.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PATCH /v1/recipes/${id}`]);
    expect(await get(`/v1/recipes/${id}`)).toMatchObject({
      name: "hello-recipe-2",
      icon: "https://assets.example.com/hello.svg",
      commands: recipe.commands,
    });
    // Recorded at install; the next read updates it.
    expect(outsOf("inst").outs.recipeName).toBe("hello-recipe");
    await refresh("inst", "RecipeInstallation");
    expect(outsOf("inst").outs.recipeName).toBe("hello-recipe-2");
  });

  it("recovers a recipe whose create answer was lost: one recipe, found and adopted", async () => {
    await ctx().emu.control.post("/_emulator/faults", { kind: "drop", method: "POST", path: "/v1/workspaces/*/recipes", times: 1 });
    const { now } = await upLogged("dropped", "Recipe", {
      name: "dropped-recipe",
      category: "DEVOPS",
      description: "lost answer",
      commands: [{ path: "/opt/x.sh" }],
    });
    const mine = (await api().get(`/v1/workspaces/${wid}/recipes`, { name: "dropped-recipe" })).body.items;
    expect(mine).toHaveLength(1);
    expect(now.id).toBe(String(mine[0].id));
    expect(notices).toContainEqual(expect.stringMatching(new RegExp(`create answer was lost.*\\(id ${now.id}\\) and adopted it`)));
  });
});
