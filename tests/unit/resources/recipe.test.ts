/**
 * Recipe: defaults and checks at preview and the policy table, through the lifecycle's check and
 * diff (which never call the API).
 */
import { checkOnly, failureLines } from "../../support/preview";
import { recipeDefinition } from "../../../resources/recipe";

describe("Recipe", () => {
  const recipe = {
    name: "r",
    category: "TOOLS",
    description: "# r",
    commands: [{ path: "/opt/r.sh" }],
    fields: [{ id: "A", label: "a", type: "TEXT" }],
  };
  it("fills a recipe's defaults and checks it at preview", async () => {
    const r = await checkOnly(recipeDefinition).check!({}, recipe);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({
      icon: null,
      commands: [{ path: "/opt/r.sh", args: [] }],
      fields: [{ id: "A", label: "a", type: "TEXT", description: null, required: false }],
    });
    const bad = await failureLines(recipeDefinition, {
      ...recipe,
      category: "GAMING",
      commands: [],
      fields: [{ id: "1x", label: "a", type: "TEXT" }],
    });
    expect(bad.join("\n")).toMatch(/category: must be one of DEFAULT/);
    expect(bad.join("\n")).toMatch(/commands: must list at least one command/);
    expect(bad.join("\n")).toMatch(/fields\[0\]\.id: must start with a letter/);
    expect(
      (
        await failureLines(recipeDefinition, {
          ...recipe,
          fields: [
            { id: "db_name", label: "a", type: "TEXT" },
            { id: "DB_NAME", label: "b", type: "TEXT" },
          ],
        })
      ).join("\n"),
    ).toMatch(/fields\[1\]: duplicate field id/);
  });

  it("patches every recipe field in place", async () => {
    const olds = { ...(await checkOnly(recipeDefinition).check!({}, recipe)).inputs };
    for (const [field, value] of Object.entries({
      name: "x",
      category: "AI",
      description: "y",
      commands: [{ path: "/a", args: [] }],
      icon: "https://x.example/i.svg",
      fields: [],
    })) {
      expect(await checkOnly(recipeDefinition).diff!("1", olds, { ...olds, [field]: value })).toMatchObject({
        changes: true,
        replaces: [],
      });
    }
  });
});
