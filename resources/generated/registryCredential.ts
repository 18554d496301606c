/** Generated from resources/registryCredential.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `RegistryCredential`. */
export interface RegistryCredentialArgs extends CommonArgs {
  /** Registry host, full URL or alias (https://GHCR.io/v2/ and ghcr.io are the same). Recorded in the canonical form the API uses. Changing it replaces the resource. */
  registry: pulumi.Input<string>;
  /** Username (re-validated against the registry on a change). Changing it updates the resource in place. */
  username: pulumi.Input<string>;
  /** Password or access token (secret; re-validated on a change). Write-only in the API: a change made outside Pulumi cannot be detected. Changing it updates the resource in place. */
  password: pulumi.Input<string>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `RegistryCredential` records: its outputs, each also a typed property of the class. */
export interface RegistryCredentialOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Registry host, full URL or alias (https://GHCR.io/v2/ and ghcr.io are the same). Recorded in the canonical form the API uses. Changing it replaces the resource. */
  registry: string;
  /** Username (re-validated against the registry on a change). Changing it updates the resource in place. */
  username: string;
  /** Password or access token (secret; re-validated on a change). Write-only in the API: a change made outside Pulumi cannot be detected. Changing it updates the resource in place. */
  password?: string;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt?: string;
  /** Time of the last change (ISO 8601), as the API reports it. */
  updatedAt?: string;
}

const SHAPE: ClassShape = {
  kind: "RegistryCredential",
  outputs: ["workspaceId", "registry", "username", "password", "createdAt", "updatedAt"],
  secretOutputs: ["password"],
  secretInputs: ["password"],
};

/** Credentials apps use to pull images from a private registry. Validated by the API against the live registry; a credential the workspace already has for the host is adopted, not duplicated. Apps pulling from that registry can no longer pull updates once it is deleted. */
export class RegistryCredential extends CustomResource {
  constructor(name: string, args: RegistryCredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `RegistryCredentialOutputs`. */
export interface RegistryCredential extends OutputProperties<RegistryCredentialOutputs> {}
