/** Generated from resources/workspaceInvite.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { WorkspaceInviteArgs, WorkspaceInviteOutputs } from "../workspaceInvite";

const SHAPE: ClassShape = {
  kind: "WorkspaceInvite",
  outputs: ["workspaceId", "email", "accessLevel", "state", "expires", "acceptedBy", "invitedBy", "code", "createdAt"],
  secretOutputs: ["code"],
  secretInputs: [],
};

/** An invitation into a workspace (needs the ADMINISTRATOR role). The addressee accepts it with the single-use `code` (mailed, and kept here as a secret output) within seven days. `pulumi refresh` records acceptance (`acceptedBy`) or expiry; an expired invite is replaced by the next `pulumi up`. Deleting an accepted invite removes the member. */
export class WorkspaceInvite extends DynamicResource {
  constructor(name: string, args: WorkspaceInviteArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `WorkspaceInviteOutputs`. */
export interface WorkspaceInvite extends OutputProperties<WorkspaceInviteOutputs> {}
