/**
 * Pulumi's property paths (provider/fields/propertyPath.ts), as the engine reads them
 * (sdk/go/common/resource/properties_path.go): parsed, written back, matched with Contains, used by
 * ignoreChanges to keep a recorded value, and found as the changed leaves of two values.
 */
import { contains, formatPath, keepOld, leafChanges, parsePath, type PropertyPath } from "../../../provider/fields/propertyPath";

describe("parsePath", () => {
  it.each<[string, PropertyPath]>([
    ["description", ["description"]],
    ["ports[0].name", ["ports", 0, "name"]],
    ['labels["a.b"]', ["labels", "a.b"]],
    ['labels["say \\"hi\\""]', ["labels", 'say "hi"']],
    ["ports[*].port", ["ports", "*", "port"]],
    ["*", ["*"]],
    ["foo-bar", ["foo-bar"]],
    ['["root key"][2]', ["root key", 2]],
  ])("%s", (text, path) => expect(parsePath(text)).toEqual(path));

  it.each(["", ".a", "a.", "a[x]", 'a["b', "a[1"])("refuses %j with a reason", (text) => {
    expect(parsePath(text)).toEqual(expect.stringContaining("is not a property path"));
  });
});

describe("formatPath", () => {
  it.each<[PropertyPath, string]>([
    [["description"], "description"],
    [["ports", 0, "name"], "ports[0].name"],
    [["labels", "a.b"], 'labels["a.b"]'],
    [["env", "MY-VAR"], 'env["MY-VAR"]'],
  ])("%j is %s, which parses back", (path, text) => {
    expect(formatPath(path)).toBe(text);
    expect(parsePath(text)).toEqual(path);
  });
});

describe("contains (the engine's PropertyPath.Contains)", () => {
  it.each<[string, string, boolean]>([
    ["description", "description", true],
    ["ports", "ports[0].name", true],
    ["ports[0].name", "ports", false],
    ["ports[*].port", "ports[3].port", true],
    ["ports[*].port", "ports[3].name", false],
    ["*", "anything.at[1].all", true],
    ["name", "names", false],
  ])("%s contains %s: %s", (p, other, expected) => {
    expect(contains(parsePath(p) as PropertyPath, parsePath(other) as PropertyPath)).toBe(expected);
  });
});

describe("keepOld (what ignoreChanges keeps)", () => {
  const old = {
    description: "edited",
    ports: [
      { port: 80, name: "web" },
      { port: 443, name: "tls" },
    ],
    env: { A: "1" },
  };
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ["description", { description: "declared", name: "n" }, { description: "edited", name: "n" }],
    [
      "ports[1].name",
      {
        ports: [
          { port: 80, name: "x" },
          { port: 443, name: "y" },
        ],
      },
      {
        ports: [
          { port: 80, name: "x" },
          { port: 443, name: "tls" },
        ],
      },
    ],
    [
      "ports[*].name",
      {
        ports: [
          { port: 80, name: "x" },
          { port: 443, name: "y" },
        ],
      },
      {
        ports: [
          { port: 80, name: "web" },
          { port: 443, name: "tls" },
        ],
      },
    ],
    ["env", { env: { B: "2" } }, { env: { A: "1" } }],
    ["missing", { missing: "declared" }, {}],
    ["ports[5].name", { ports: [] }, { ports: [] }],
  ])("%s", (path, next, expected) => {
    keepOld(old, next, parsePath(path) as PropertyPath);
    expect(next).toEqual(expected);
  });
});

describe("leafChanges", () => {
  const unknown = (v: unknown) => v === "<unknown>";
  it.each<[unknown, unknown, Array<[string, string]>]>([
    ["a", "a", []],
    ["a", "b", [["f", "update"]]],
    [undefined, "b", [["f", "add"]]],
    [
      { a: 1, b: 2 },
      { a: 1, b: 3, c: 4 },
      [
        ["f.b", "update"],
        ["f.c", "add"],
      ],
    ],
    [{ a: 1 }, {}, [["f.a", "delete"]]],
    [
      [{ port: 80 }, { port: 443 }],
      [{ port: 8080 }],
      [
        ["f[0].port", "update"],
        ["f[1]", "delete"],
      ],
    ],
    [[1], [1, 2], [["f[1]", "add"]]],
    [{ a: 1 }, "<unknown>", [["f", "update"]]],
    [{ a: 1 }, { a: "<unknown>" }, [["f.a", "update"]]],
    [{ a: 1 }, null, [["f", "update"]]],
  ])("%j -> %j", (old, next, expected) => {
    expect(leafChanges(old, next, ["f"], unknown).map((c) => [formatPath(c.path), c.kind])).toEqual(expected);
  });
});
