/** Generated from resources/sshKey.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { SshKeyArgs, SshKeyOutputs } from "../sshKey";

const SHAPE: ClassShape = {
  kind: "SshKey",
  outputs: ["workspaceId", "name", "publicKey", "fingerprint", "uploadedBy", "createdAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A workspace SSH key, injected into instances provisioned after it exists. Every change replaces it. */
export class SshKey extends DynamicResource {
  constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `SshKeyOutputs`. */
export interface SshKey extends OutputProperties<SshKeyOutputs> {}
