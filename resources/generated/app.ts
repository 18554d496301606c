/** Generated from resources/app.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { AppArgs, AppOutputs } from "../app";

const SHAPE: ClassShape = {
  kind: "App",
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
export class App extends DynamicResource {
  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `AppOutputs`. */
export interface App extends OutputProperties<AppOutputs> {}
