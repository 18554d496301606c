/** Generated from resources/workspaceInvite.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `WorkspaceInvite`. */
export interface WorkspaceInviteArgs extends CommonArgs {
  /** Address the invite is mailed to (lower-cased, as the API stores it). Changing it replaces the resource. */
  email: pulumi.Input<string>;
  /** VIEWER, EDITOR or ADMINISTRATOR, lower than your own role (OWNER is never assignable by invite); on an accepted invite a change changes the member's role. Changing it updates the resource in place. */
  accessLevel: pulumi.Input<"VIEWER" | "EDITOR" | "ADMINISTRATOR">;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `WorkspaceInvite` records: its outputs, each also a typed property of the class. */
export interface WorkspaceInviteOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Address the invite is mailed to (lower-cased, as the API stores it). Changing it replaces the resource. */
  email: string;
  /** VIEWER, EDITOR or ADMINISTRATOR, lower than your own role (OWNER is never assignable by invite); on an accepted invite a change changes the member's role. Changing it updates the resource in place. */
  accessLevel: "VIEWER" | "EDITOR" | "ADMINISTRATOR";
  /** PENDING, ACCEPTED or EXPIRED. */
  state: string;
  /** Expiry, seven days after creation. */
  expires: string;
  /** User id of the member who accepted it, else null. */
  acceptedBy: string | null;
  /** The creator (id, name). */
  invitedBy: { id: string; name: string } | null;
  /** Single-use code: returned only by the creation response (secret); unset when unknown (adopted). */
  code?: string;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt?: string;
}

const SHAPE: ClassShape = {
  kind: "WorkspaceInvite",
  outputs: ["workspaceId", "email", "accessLevel", "state", "expires", "acceptedBy", "invitedBy", "code", "createdAt"],
  secretOutputs: ["code"],
  secretInputs: [],
};

/** An invitation into a workspace (needs the ADMINISTRATOR role). The addressee accepts it with the single-use `code` (mailed, and kept here as a secret output) within seven days. `pulumi refresh` records acceptance (`acceptedBy`) or expiry; an expired invite is replaced by the next `pulumi up`. Deleting an accepted invite removes the member. */
export class WorkspaceInvite extends CustomResource {
  constructor(name: string, args: WorkspaceInviteArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `WorkspaceInviteOutputs`. */
export interface WorkspaceInvite extends OutputProperties<WorkspaceInviteOutputs> {}
