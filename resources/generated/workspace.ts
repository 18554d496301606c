/** Generated from resources/workspace.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { WorkspaceArgs, WorkspaceOutputs } from "../workspace";

const SHAPE: ClassShape = {
  kind: "Workspace",
  outputs: ["name", "mfaRequired", "disableSshPassword", "owner", "flags", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A workspace; the token's user becomes its OWNER (needs a user-scoped token). The API cannot delete workspaces: `pulumi destroy` (or removing it from the program) only removes it from the stack; it keeps existing in the API, and `adoptId` takes it back. Its `id` is what workspace-scoped resources take as `workspaceId`. */
export class Workspace extends DynamicResource {
  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `WorkspaceOutputs`. */
export interface Workspace extends OutputProperties<WorkspaceOutputs> {}
