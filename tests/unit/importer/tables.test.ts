/**
 * svc-import's tables against the registry and the field sets: every kind has a rule
 * (importer/kinds.ts) and every kind taken lists its objects; every input that names another
 * object by id is a reference (importer/references.ts) or said not to be, and every reference
 * names an input of its kind and a kind of the registry.
 */
import { KIND_TAKE } from "../../../importer/kinds";
import { NOT_REFERENCES, REFERENCES } from "../../../importer/references";
import { kinds, definitionOf } from "../../../resources/kinds";

describe("importer/kinds.ts", () => {
  it("has a rule for every kind of the registry, and no other", () => {
    expect(Object.keys(KIND_TAKE).sort()).toEqual(kinds().sort());
  });

  it.each(kinds())("%s: listed when taken, with a reason when not taken by default", (kind) => {
    const take = KIND_TAKE[kind];
    if (take.take !== "never") expect(typeof definitionOf(kind).api.list).toBe("function");
    if (take.take !== "default") expect(take.why.length).toBeGreaterThan(20);
  });
});

describe("importer/references.ts", () => {
  it.each(kinds())("%s: every id-valued input is a reference or said not to be", (kind) => {
    const fields = definitionOf(kind).fields;
    const named = Object.entries(fields)
      .filter(([name, f]) => f.role === "input" && /Ids?$/.test(name))
      .map(([name]) => name)
      .sort();
    const classified = [...Object.keys(REFERENCES[kind] ?? {}), ...Object.keys(NOT_REFERENCES[kind] ?? {})]
      .filter((n) => /Ids?$/.test(n))
      .sort();
    expect(classified).toEqual(named);
  });

  it("names inputs of their kind and kinds of the registry", () => {
    for (const [kind, refs] of Object.entries(REFERENCES))
      for (const [field, to] of Object.entries(refs)) {
        expect({ kind, field, input: definitionOf(kind).fields[field]?.role }).toEqual({ kind, field, input: "input" });
        expect(kinds()).toContain(to.kind);
      }
  });
});
