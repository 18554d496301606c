/**
 * Resources as the rules see them (rules.ts `Subject`), from the two places they come from: what
 * the engine shows a policy pack (a preview, an up, `pulumi policy analyze`) and the resources of
 * `pulumi stack export` (analyze/, where the CLI has no `policy analyze`). As the engine does, a
 * resource rule reads a resource's inputs and a stack rule its outputs (the recorded state).
 */
import { kindOf } from "../../provider/typeTokens";
import { plainProps } from "../pricing";
import type { Subject } from "./rules";
import { sentProperties } from "./requests";
import { readValue } from "./values";

/** A resource as @pulumi/policy shows it (the members used here). */
export interface ShownResource {
  urn: string;
  name: string;
  type: string;
  props: Record<string, unknown>;
  propertyDependencies?: Record<string, Array<{ urn: string }>>;
}

/** A svc resource shown to the pack, or undefined for any other; its values as the engine sent them (requests.ts). */
export function shownSubject(r: ShownResource): Subject | undefined {
  const kind = kindOf(r.type);
  if (!kind) return undefined;
  const dependsOn = Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, deps]) => [k, deps.map((d) => d.urn)]));
  // Never missing in practice: the request is recorded before the SDK calls the policy.
  const props = sentProperties(r.urn) ?? (plainProps(r.props) as Record<string, unknown>);
  return { urn: r.urn, name: r.name, kind, props, dependsOn };
}

/** A resource of `pulumi stack export` (the members used here). */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  propertyDependencies?: Record<string, string[]>;
  delete?: boolean;
}

/** A recorded svc resource, its inputs (for resource rules) or outputs (for stack rules), or undefined for any other. */
export function exportedSubject(r: ExportedResource, side: "inputs" | "outputs"): Subject | undefined {
  const kind = kindOf(r.type);
  if (!kind || r.delete) return undefined;
  return {
    urn: r.urn,
    name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
    kind,
    id: r.id,
    props: (readValue(r[side] ?? {}) ?? {}) as Record<string, unknown>,
    dependsOn: r.propertyDependencies ?? {},
  };
}
