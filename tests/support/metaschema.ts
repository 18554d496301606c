/**
 * Pulumi's package metaschema (pkg/codegen/schema/pulumi.json) of the CLI the tests run, taken from
 * the Go module that CLI was built from (`go mod download` finds it in the module cache, where
 * scripts/ensure-pulumi.sh put it, or fetches it from the module proxy).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiVersion } from "./pulumiCli";

export function pulumiMetaschema(version: string = pulumiVersion()): Record<string, unknown> {
  const module = `github.com/pulumi/pulumi/pkg/v3@v${version}`;
  const { Dir } = JSON.parse(execFileSync("go", ["mod", "download", "-json", module], { encoding: "utf8" })) as { Dir: string };
  return JSON.parse(fs.readFileSync(path.join(Dir, "codegen", "schema", "pulumi.json"), "utf8"));
}

/**
 * The metaschema with unknown keys refused: every object schema that lists its properties, says
 * nothing of others and is not a part another schema is composed of (an allOf, anyOf or oneOf
 * member, or a definition such a member refers to) gets `unevaluatedProperties: false`, which sees
 * the properties its parts evaluated (`additionalProperties` would not see through allOf).
 */
export function refusingUnknownKeys(metaschema: Record<string, unknown>): Record<string, unknown> {
  const parts = new Set<string>();
  const collectParts = (node: unknown, inComposition: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => collectParts(n, inComposition));
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && inComposition && typeof v === "string") parts.add(v);
      collectParts(v, COMPOSITION.includes(k) || (inComposition && k === "$ref"));
    }
  };
  collectParts(metaschema, false);
  const close = (node: unknown, ref: string | undefined, isPart: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => close(n, undefined, isPart));
    if (!node || typeof node !== "object") return node;
    const out = Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === "$defs"
          ? Object.fromEntries(Object.entries(v as object).map(([name, def]) => [name, close(def, `#/$defs/${name}`, false)]))
          : close(v, undefined, COMPOSITION.includes(k)),
      ]),
    );
    const open = !("properties" in out) || OPEN_KEYS.some((k) => k in out) || isPart || (ref !== undefined && parts.has(ref));
    return open ? out : { ...out, unevaluatedProperties: false };
  };
  return close(metaschema, "#", false) as Record<string, unknown>;
}

const COMPOSITION = ["allOf", "anyOf", "oneOf"];
const OPEN_KEYS = ["additionalProperties", "unevaluatedProperties", "patternProperties"];
