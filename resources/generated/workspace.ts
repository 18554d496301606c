/** Generated from resources/workspace.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `Workspace`. */
export interface WorkspaceArgs extends CommonArgs {
  /** 4 to 32 characters; renaming needs the OWNER role. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** Require two-factor authentication of every member. Needs OWNER, and the API rejects turning it on unless every member already has 2FA (its reason is shown). Omit to leave the setting unmanaged. Changing it updates the resource in place. */
  mfaRequired?: pulumi.Input<boolean>;
  /** Disable SSH password authentication on instances when SSH keys are present. Omit to leave it unmanaged. Changing it updates the resource in place. */
  disableSshPassword?: pulumi.Input<boolean>;
}

/** What a `Workspace` records: its outputs, each also a typed property of the class. */
export interface WorkspaceOutputs extends Record<string, unknown> {
  /** 4 to 32 characters; renaming needs the OWNER role. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** Require two-factor authentication of every member. Needs OWNER, and the API rejects turning it on unless every member already has 2FA (its reason is shown). Omit to leave the setting unmanaged. Changing it updates the resource in place. */
  mfaRequired: boolean;
  /** Disable SSH password authentication on instances when SSH keys are present. Omit to leave it unmanaged. Changing it updates the resource in place. */
  disableSshPassword: boolean;
  /** The owning user (id, name). */
  owner: { id: string; name: string } | null;
  /** Workspace flags (for example set by coupons). */
  flags: string[];
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt?: string;
}

const SHAPE: ClassShape = {
  kind: "Workspace",
  autonamed: true,
  outputs: ["name", "mfaRequired", "disableSshPassword", "owner", "flags", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A workspace; the token's user becomes its OWNER (needs a user-scoped token). The API cannot delete workspaces: `pulumi destroy` (or removing it from the program) only removes it from the stack; it keeps existing in the API, and `adoptId` takes it back. Its `id` is what workspace-scoped resources take as `workspaceId`. */
export class Workspace extends CustomResource {
  constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `WorkspaceOutputs`. */
export interface Workspace extends OutputProperties<WorkspaceOutputs> {}
