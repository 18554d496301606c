/**
 * The input checks resources share (provider/fields/constraints.ts), each in one place: what they accept and
 * refuse, and the messages resources rely on.
 */
import { z } from "zod";
import { exactly, hasTag, noDuplicates, zAbsolutePath, zPort } from "../../../provider/fields/constraints";

const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("hasTag", () => {
  it.each(["nginx:1.27", "ghcr.io/org/app:v2", "registry.example.com:5000/team/app:v2", "library/redis:7.2-alpine", "app:_latest"])(
    "accepts %s",
    (image) => {
      expect(hasTag(image)).toBe(true);
    },
  );
  it.each([
    ["no tag", "nginx"],
    ["a registry port but no tag", "registry:5000/team/app"],
    ["a digest", "nginx@sha256:abc"],
    ["whitespace", "nginx :1.27"],
    ["an empty tag", "nginx:"],
    ["a tag starting with .", "nginx:.1"],
    ["a tag of 129 characters", `nginx:${"a".repeat(129)}`],
  ])("refuses %s", (_what, image) => {
    expect(hasTag(image)).toBe(false);
  });
});

describe("zAbsolutePath", () => {
  it("accepts an absolute path and cites the spec's shape when given", () => {
    expect(messages(zAbsolutePath("W"), "/srv/data")).toEqual([]);
    expect(messages(zAbsolutePath("W", { what: "inside the container", shape: "AppVolumeMount" }), "data")).toEqual([
      ": must be an absolute path inside the container, starting with / (W: AppVolumeMount)",
    ]);
    expect(messages(zAbsolutePath("W"), "/a b")).toEqual([": must be an absolute path, starting with / (W)"]);
  });
  it("accepts a path of any length: the spec gives no maximum, the API decides", () => {
    expect(messages(zAbsolutePath("W"), `/${"a".repeat(4096)}`)).toEqual([]);
  });
});

describe("zPort", () => {
  it.each([
    [0, "must be 1 to 65535 (W)"],
    [65536, "must be 1 to 65535 (W)"],
    [80.5, "must be a whole port number, 1 to 65535 (W)"],
    ["80", "must be a port number, 1 to 65535 (W)"],
  ])("refuses %s", (port, message) => {
    expect(messages(zPort("W"), port)).toEqual([`: ${message}`]);
  });
});

describe("noDuplicates and exactly", () => {
  const list = z.array(z.strictObject({ name: z.string() }, exactly("name"))).superRefine(noDuplicates((e) => e.name, "name", "W"));
  it("reports each repeat on its own index", () => {
    expect(messages(list, [{ name: "a" }, { name: "b" }, { name: "a" }, { name: "a" }])).toEqual([
      "2: duplicate name a: each may appear once (W)",
      "3: duplicate name a: each may appear once (W)",
    ]);
  });
  it("names an unknown field and the fields there are", () => {
    expect(messages(list, [{ name: "a", Name: "b" }])).toEqual(["0: unknown field Name: the fields are name"]);
  });
});
