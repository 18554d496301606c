/** Generated from resources/registryCredential.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { RegistryCredentialArgs, RegistryCredentialOutputs } from "../registryCredential";

const SHAPE: ClassShape = {
  kind: "RegistryCredential",
  outputs: ["workspaceId", "registry", "username", "password", "createdAt", "updatedAt"],
  secretOutputs: ["password"],
  secretInputs: ["password"],
};

/** Credentials apps use to pull images from a private registry. Validated by the API against the live registry; a credential the workspace already has for the host is adopted, not duplicated. Apps pulling from that registry can no longer pull updates once it is deleted. */
export class RegistryCredential extends DynamicResource {
  constructor(name: string, args: RegistryCredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `RegistryCredentialOutputs`. */
export interface RegistryCredential extends OutputProperties<RegistryCredentialOutputs> {}
