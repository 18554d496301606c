/** Generated from resources/sshKey.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `SshKey`. */
export interface SshKeyArgs extends CommonArgs {
  /** Display name, 4 to 32 characters (the API has no update). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name?: pulumi.Input<string>;
  /** OpenSSH public key line, "<type> <base64> [comment]" (ssh-ed25519, ssh-rsa, ecdsa-sha2-*, sk-*); checked at preview. Changing it replaces the resource. */
  publicKey: pulumi.Input<string>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `SshKey` records: its outputs, each also a typed property of the class. */
export interface SshKeyOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Display name, 4 to 32 characters (the API has no update). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name: string;
  /** OpenSSH public key line, "<type> <base64> [comment]" (ssh-ed25519, ssh-rsa, ecdsa-sha2-*, sk-*); checked at preview. Changing it replaces the resource. */
  publicKey: string;
  /** Fingerprint, when the API reports one (SHA256:...). */
  fingerprint?: string;
  /** The uploader (id, name). */
  uploadedBy: { id: string; name: string } | null;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt?: string;
}

const SHAPE: ClassShape = {
  kind: "SshKey",
  autonamed: true,
  outputs: ["workspaceId", "name", "publicKey", "fingerprint", "uploadedBy", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A workspace SSH key, injected into instances provisioned after it exists. Every change replaces it. */
export class SshKey extends CustomResource {
  constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `SshKeyOutputs`. */
export interface SshKey extends OutputProperties<SshKeyOutputs> {}
