/**
 * A field declared once (provider/fields/declare.ts): what derives from a field set, on a small set that
 * has one of each kind of field, and the policy sentences as a table.
 */
import { z } from "zod";
import {
  computed,
  declaredInputs,
  derived,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  outputNamesOf,
  type OutputsOf,
  owningWorkspace,
  writeOnly,
} from "../../../provider/fields/declare";
import { member, variant, variants } from "../../../provider/fields/objectInputs";
import { createBody, outputsFromAnswer, updateBody, variantFromWire, variantToWire } from "../../../provider/fields/convert";
import { docOf, effectSentence } from "../../../provider/fields/sentences";
import { depends, ignore, type ChangeEffect, remember, replace, updateRequest, updateSteps } from "../../../provider/fields/changeEffects";

const steps = updateSteps("attach", "resize");

const fields = fieldSet({
  workspaceId: owningWorkspace,
  name: input(z.string(), { doc: "Display name.", onChange: updateRequest }),
  secureBoot: input(z.boolean().optional(), { doc: "Secure boot.", onChange: updateRequest, wire: "secure_boot" }),
  region: input(z.string(), { doc: "Region.", onChange: replace, stable: true }),
  password: input(z.string(), { doc: "Password.", onChange: updateRequest, secret: true, output: false }),
  instanceId: input(z.string().nullable().default(null), { doc: "Instance.", onChange: steps.attach, create: false }),
  code: computed<string>({ doc: "One-time code.", secret: true }),
  createdAt: computed<string>({ doc: "Creation time.", stable: true, fromAnswer: (a: { created?: string }) => a.created ?? "" }),
});

describe("a field set", () => {
  it("declares the spec's input schema, policies, workspace scope, stable and secret outputs", () => {
    const spec = fromFields(fields);
    expect(Object.keys(spec.inputs.shape)).toEqual(["name", "secureBoot", "region", "password", "instanceId"]);
    expect(spec.onChange).toEqual({
      name: updateRequest,
      secureBoot: updateRequest,
      region: replace,
      password: updateRequest,
      instanceId: steps.attach,
    });
    expect(spec.workspaceScoped).toBe(true);
    expect(spec.stableOutputs).toEqual(["region", "createdAt"]);
    expect(spec.secretOutputs).toEqual(["password", "code"]);
    expect(fromFields({ name: fields.name }).workspaceScoped).toBe(false);
  });

  it("validates inputs with each field's schema (defaults applied)", () => {
    const spec = fromFields(fields);
    expect(spec.inputs.parse({ name: "a", region: "NA_01", password: "p" })).toEqual({
      name: "a",
      region: "NA_01",
      password: "p",
      instanceId: null,
    });
    expect(spec.inputs.safeParse({ name: 1, region: "NA_01", password: "p" }).success).toBe(false);
  });

  it("registers every output (an input with output: false is none)", () => {
    expect(outputNamesOf(fields)).toEqual(["workspaceId", "name", "secureBoot", "region", "instanceId", "code", "createdAt"]);
  });

  it("reads outputs from an API answer by wire name, a field's read, and the workspace's fallback", () => {
    const answer = { name: "a", secure_boot: true, region: "NA_01", instanceId: null, code: "c", created: "2026-01-01T00:00:00Z" };
    expect(outputsFromAnswer(fields, answer, { workspaceId: "42" })).toEqual({
      workspaceId: "42",
      name: "a",
      secureBoot: true,
      region: "NA_01",
      instanceId: null,
      code: "c",
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(outputsFromAnswer(fields, { ...answer, workspace: { id: 7 } }).workspaceId).toBe("7");
  });

  it("writes request bodies in the API's names: the create body leaves out the workspace and inputs set after creation", () => {
    const values = { workspaceId: "42", name: "a", secureBoot: true, region: "NA_01", password: "p", instanceId: "9" };
    expect(createBody(fields, values)).toEqual({ name: "a", secure_boot: true, region: "NA_01", password: "p" });
    expect(updateBody(fields, values, ["name", "secureBoot"])).toEqual({ name: "a", secure_boot: true });
  });

  it("documents an input with its doc and the sentence its policy says; a computed output with its doc", () => {
    expect(docOf(fields.region)).toBe("Region. Changing it replaces the resource.");
    expect(docOf(fields.workspaceId)).toBe(
      "Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource.",
    );
    expect(docOf(fields.code)).toBe("One-time code.");
  });

  it("does not compile an input without a policy", () => {
    // @ts-expect-error: policy is required, so no input goes undiffed.
    const unpoliced = input(z.string(), { doc: "No policy." });
    expect(unpoliced.role).toBe("input");
  });

  it("does not compile a read whose value is not the field's type", () => {
    // @ts-expect-error: a VLAN tag read as text would be recorded as text.
    const misread = computed<number>({ doc: "VLAN tag.", fromAnswer: (v: { vlan: number }) => String(v.vlan) });
    // @ts-expect-error: an input's read gives what its schema gives.
    const misreadInput = input(z.number(), { doc: "Size.", onChange: updateRequest, fromAnswer: () => "10G" });
    expect([misread.role, misreadInput.role]).toEqual(["computed", "input"]);
  });
});

describe("values the API does not answer", () => {
  const kept = fieldSet({
    name: input(z.string(), { doc: "Name.", onChange: updateRequest }),
    mfa: input(z.boolean().optional(), { doc: "MFA.", onChange: updateRequest, fromAnswer: (a: { mfa?: boolean }) => !!a.mfa }),
    password: writeOnly(z.string(), { doc: "Password.", onChange: updateRequest, secret: true }),
    code: computed<string | undefined>({ doc: "One-time code.", secret: true, kept: true }),
    fingerprint: computed<string | undefined>({ doc: "Fingerprint." }),
  });

  it("keep write-only values from state: never read, listed in keepFromState, still sent", () => {
    const spec = fromFields(kept);
    expect(spec.keepFromState).toEqual(["password", "code"]);
    expect(spec.secretOutputs).toEqual(["password", "code"]);
    expect(outputNamesOf(kept)).toEqual(["name", "mfa", "password", "code", "fingerprint"]);
    expect(createBody(kept, { name: "a", password: "p" })).toEqual({ name: "a", mfa: undefined, password: "p" });
    // The answer's members that are absent stay out of the outputs (as compact() left them out); kept ones are never read.
    expect(outputsFromAnswer(kept, { name: "a", password: "leaked?", code: "c" })).toStrictEqual({ name: "a", mfa: false });
  });

  it("let an input's read narrow its recorded type, or make it null (detached outside Pulumi), never widen it to another type", () => {
    const narrowed: { mfa: boolean } = outputsFromAnswer(kept, { name: "a", mfa: true });
    expect(narrowed.mfa).toBe(true);
    // @ts-expect-error: an optional boolean read as text would be recorded as text.
    const widened = input(z.boolean().optional(), { doc: "MFA.", onChange: updateRequest, fromAnswer: () => "yes" });
    expect(widened.role).toBe("input");
  });
});

describe("what an input records", () => {
  // The API always reports the limit (narrowed), and the holder is null once detached outside Pulumi.
  const recorded = fieldSet({
    limit: input(z.number().optional(), { doc: "Limit.", onChange: updateRequest, fromAnswer: (a: { limit: number }) => a.limit }),
    holder: input(z.string(), { doc: "Holder.", onChange: updateRequest, fromAnswer: (a: { holder: string | null }) => a.holder }),
    name: input(z.string().optional(), { doc: "Name.", onChange: updateRequest }),
  });

  it("is its schema's type, narrowed or null where its read says so; the lifecycle still sees the schema's type", () => {
    const outs: OutputsOf<typeof recorded> = outputsFromAnswer(recorded, { limit: 5, holder: null });
    const limit: number = outs.limit;
    const holder: string | null = outs.holder;
    const name: string | undefined = outs.name;
    const inputs: InputsOf<typeof recorded> = { holder: "h" };
    const declared: number | undefined = inputs.limit;
    // The limit may be left out and the holder is a string: what the schema gives, whatever the read records.
    const holderIn: string = inputs.holder;
    expect([limit, holder, name, declared, holderIn]).toEqual([5, null, undefined, undefined, "h"]);
  });
});

describe("the policy sentence", () => {
  it.each<[string, ChangeEffect, string]>([
    ["replace", replace, "Changing it replaces the resource."],
    ["updateRequest", updateRequest, "Changing it updates the resource in place."],
    ["a command", steps.resize, "Changing it updates the resource in place (resize)."],
    ["ignore", ignore, "Never causes a diff."],
    ["remember", remember, "Changing it only records the new value (no API call): deletion uses it."],
    ["depends", depends(() => replace), "Depending on the change, it is made in place or replaces the resource."],
  ])("of %s", (_what, policy, sentence) => {
    expect(effectSentence(policy)).toBe(sentence);
  });
});

describe("a derived input", () => {
  // A file's hash, from its declared path: never declared, diffed, recorded, kept from state.
  const hashed = fieldSet({
    path: input(z.string(), { doc: "Path.", onChange: updateRequest }),
    hash: derived<string>({ doc: "Hash.", onChange: replace, from: (i: { path?: string }) => (i.path ? `#${i.path}` : undefined) }),
    size: computed<number>({ doc: "Size." }),
  });

  it("is computed from the declared inputs at preview (spec.defaults), left out where it does not apply", () => {
    const spec = fromFields(hashed);
    expect(spec.defaults!({ path: "a" })).toStrictEqual({ hash: "#a" });
    expect(spec.defaults!({})).toStrictEqual({});
    expect(fromFields(fields)).not.toHaveProperty("defaults");
  });

  it("is diffed with its policy, kept from state, and neither validated nor declared", () => {
    const spec = fromFields(hashed);
    expect(spec.onChange).toStrictEqual({ path: updateRequest, hash: replace });
    expect(spec.keepFromState).toStrictEqual(["hash"]);
    expect(Object.keys(spec.inputs.shape)).toStrictEqual(["path"]);
    expect(declaredInputs(hashed).map(([k]) => k)).toStrictEqual(["path"]);
    expect(docOf(hashed.hash)).toBe("Hash. Changing it replaces the resource.");
  });

  it("is an output, never read from the API, typed for the lifecycle as optional", () => {
    expect(outputNamesOf(hashed)).toStrictEqual(["path", "hash", "size"]);
    expect(outputsFromAnswer(hashed, { path: "a", hash: "from the API", size: 3 })).toStrictEqual({ path: "a", size: 3 });
    const inputs: InputsOf<typeof hashed> = { path: "a" };
    const hash: string | undefined = inputs.hash;
    const outs: OutputsOf<typeof hashed> = { path: "a", size: 3 };
    expect([hash, outs.hash]).toEqual([undefined, undefined]);
  });
});

describe("variants", () => {
  const source = variants(
    { doc: "A source", args: "SourceArgs", outputs: "Source", discriminator: "type", what: "a source", where: "spec: source" },
    {
      URL: variant("From a URL.", { url: member(z.string().min(1), { doc: "The URL." }) }),
      DISK: variant("From a disk.", {
        diskId: member(z.string().regex(/^\d+$/), { doc: "The disk.", wire: "disk_id", id: true }),
        part: member(z.number().optional(), { doc: "Its partition." }),
      }),
      FILE: variant("From a local file.", { path: member(z.string(), { doc: "The file.", local: true }) }),
    },
  );
  const messages = (value: unknown) => source.schema.safeParse(value).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);

  it("parse a value of each shape, typed by its discriminator", () => {
    const disk: (typeof source)["__output"] = source.schema.parse({ type: "DISK", diskId: "9" });
    expect(disk).toStrictEqual({ type: "DISK", diskId: "9" });
    expect(source.schema.parse({ type: "URL", url: "u" })).toStrictEqual({ type: "URL", url: "u" });
  });

  it("refuse a value of no shape with every shape and its members, an unknown member with the shape's members", () => {
    expect(messages({ type: "FTP" })).toEqual([
      "type: must be a source whose type is URL (url), DISK (diskId, part) or FILE (path) (spec: source)",
    ]);
    expect(messages({ type: "URL", url: "u", disk_id: "1" })).toEqual([": unknown field disk_id: the fields are type, url"]);
    expect(messages({ type: "DISK" })?.[0]).toMatch(/^diskId: /);
  });

  it("go to the API in its names (ids as integers, local and absent members left out) and back (ids as strings)", () => {
    expect(variantToWire(source, { type: "DISK", diskId: "9", part: 2 })).toStrictEqual({ type: "DISK", disk_id: 9n, part: 2 });
    expect(variantToWire(source, { type: "DISK", diskId: "9" })).toStrictEqual({ type: "DISK", disk_id: 9n });
    expect(variantToWire(source, { type: "FILE", path: "/a" })).toStrictEqual({ type: "FILE" });
    expect(variantFromWire(source, { type: "DISK", disk_id: 9, part: null })).toStrictEqual({ type: "DISK", diskId: "9" });
    expect(variantFromWire(source, { type: "FILE", path: "/elsewhere" })).toStrictEqual({ type: "FILE" });
    expect(variantFromWire(source, { type: "PLATFORM" })).toBeUndefined();
  });
});
