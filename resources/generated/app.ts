/** Generated from resources/app.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer } from "../../provider/fields/integer";

import type { AppMountArgs, Mount } from "../appTemplate";

/** A port mapping of a custom-image app (as a program passes it). */
export interface AppPortArgs {
  /** Port exposed on the instance host. */
  hostPort: pulumi.Input<Integer>;
  /** Port the container listens on. */
  containerPort: pulumi.Input<Integer>;
  /** TCP (default) or UDP. */
  protocol?: pulumi.Input<"TCP" | "UDP">;
  /** Serves HTTP traffic eligible for a custom domain (default false). */
  http?: pulumi.Input<boolean>;
}

/** A port mapping of a custom-image app (as recorded). */
export interface AppPort {
  /** Port exposed on the instance host. */
  hostPort: Integer;
  /** Port the container listens on. */
  containerPort: Integer;
  /** TCP (default) or UDP. */
  protocol: "TCP" | "UDP";
  /** Serves HTTP traffic eligible for a custom domain (default false). */
  http: boolean;
}

/** The arguments of a `App`. */
export interface AppArgs extends CommonArgs {
  /** Instance the container runs on. Changing it replaces the resource. */
  instanceId: pulumi.Input<string>;
  /** Unique within the workspace. A replacement that keeps the name, or a host port on the same instance, deletes the old app first. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name?: pulumi.Input<string>;
  /** Custom image with a tag (e.g. nginx:1.27); set this or templateId. A change redeploys. Changing it updates the resource in place. */
  image?: pulumi.Input<string>;
  /** Deploy from this app template (see getAppTemplate); set this or image. Changing it replaces the resource. */
  templateId?: pulumi.Input<string>;
  /** Custom app: the environment (replaced as a whole). Template app: overrides of the template's defaults (a string replaces one, null removes it, placeholders allowed). Stored as a Pulumi secret. Changing it updates the resource in place. */
  environment?: pulumi.Input<Record<string, pulumi.Input<string | null>>>;
  /** Volume mounts; for a template app they replace the template's. Changing it updates the resource in place. */
  mounts?: pulumi.Input<pulumi.Input<AppMountArgs>[]>;
  /** Port mappings of a custom-image app. Changing it updates the resource in place. */
  ports?: pulumi.Input<pulumi.Input<AppPortArgs>[]>;
  /** Custom domain; needs a port with http true (template: an http template port). Changing it replaces the resource. */
  domain?: pulumi.Input<string>;
  /** Desired container state (default true). Changing it updates the resource in place (power). */
  running?: pulumi.Input<boolean>;
}

/** What a `App` records: its outputs, each also a typed property of the class. */
export interface AppOutputs extends Record<string, unknown> {
  /** Workspace the app belongs to (its instance's). */
  workspaceId: string;
  /** Instance the container runs on. Changing it replaces the resource. */
  instanceId: string;
  /** Unique within the workspace. A replacement that keeps the name, or a host port on the same instance, deletes the old app first. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name: string;
  /** Custom image with a tag (e.g. nginx:1.27); set this or templateId. A change redeploys. Changing it updates the resource in place. */
  image: string;
  /** Deploy from this app template (see getAppTemplate); set this or image. Changing it replaces the resource. */
  templateId?: string;
  /** Custom app: the environment (replaced as a whole). Template app: overrides of the template's defaults (a string replaces one, null removes it, placeholders allowed). Stored as a Pulumi secret. Changing it updates the resource in place. */
  environment?: Record<string, string | null>;
  /** The final values the API stores (template placeholders resolved). */
  resolvedEnvironment: Record<string, string>;
  /** Volume mounts; for a template app they replace the template's. Changing it updates the resource in place. */
  mounts: Mount[];
  /** Port mappings of a custom-image app. Changing it updates the resource in place. */
  ports: AppPort[];
  /** Custom domain; needs a port with http true (template: an http template port). Changing it replaces the resource. */
  domain?: string;
  /** Desired container state (default true). Changing it updates the resource in place (power). */
  running: boolean;
  /** Resource state: PENDING, AVAILABLE, FAILED, DELETING... */
  state: string;
  /** Container id of the current deploy (null before the first deploy completes). */
  containerId: string | null;
  /** Live port allocations. */
  portAllocations: AppPort[];
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "App",
  autonamed: true,
  outputs: [
    "workspaceId",
    "instanceId",
    "name",
    "image",
    "templateId",
    "environment",
    "resolvedEnvironment",
    "mounts",
    "ports",
    "domain",
    "running",
    "state",
    "containerId",
    "portAllocations",
    "createdAt",
  ],
  secretOutputs: ["environment", "resolvedEnvironment"],
  secretInputs: ["environment"],
};

/** A container app on an instance, from a custom image or an app template. */
export class App extends CustomResource {
  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `AppOutputs`. */
export interface App extends OutputProperties<AppOutputs> {}
