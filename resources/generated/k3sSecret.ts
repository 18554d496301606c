/** Generated from resources/k3sSecret.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";

/** The arguments of a `K3sSecret`. */
export interface K3sSecretArgs extends CommonArgs {
  /** Unique in the workspace; services reference the secret by this name. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name?: pulumi.Input<string>;
  /** Key to value; every pair is injected into referencing services as an environment variable. Always stored as a Pulumi secret (wrapped if given in plain). Values are write-only in the API: only a change of key names made outside Pulumi is detected (the recorded data then reads as null, and the next up writes it again). Changing it updates the resource in place. */
  data: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `K3sSecret` records: its outputs, each also a typed property of the class. */
export interface K3sSecretOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Unique in the workspace; services reference the secret by this name. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name: string;
  /** Key to value; every pair is injected into referencing services as an environment variable. Always stored as a Pulumi secret (wrapped if given in plain). Values are write-only in the API: only a change of key names made outside Pulumi is detected (the recorded data then reads as null, and the next up writes it again). Changing it updates the resource in place. */
  data?: Record<string, string> | null;
  /** Key names, sorted. */
  keys: string[];
}

const SHAPE: ClassShape = {
  kind: "K3sSecret",
  autonamed: true,
  outputs: ["workspaceId", "name", "data", "keys"],
  secretOutputs: ["data"],
  secretInputs: ["data"],
};

/** Key-value pairs for K3sServices (through their secretRefs); the values stay secret in state. */
export class K3sSecret extends CustomResource {
  constructor(name: string, args: K3sSecretArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sSecretOutputs`. */
export interface K3sSecret extends OutputProperties<K3sSecretOutputs> {}
