/** Generated from resources/appTemplate.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { AppTemplateArgs, AppTemplateOutputs } from "../appTemplate";

const SHAPE: ClassShape = {
  kind: "AppTemplate",
  outputs: ["name", "description", "image", "category", "environment", "mounts", "ports", "createdAt", "updatedAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A staff-curated app definition that Apps deploy from (`templateId`). Every change is made in place. Needs an operator (staff) token: set svc:token to one in the stack that declares it. */
export class AppTemplate extends DynamicResource {
  constructor(name: string, args: AppTemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `AppTemplateOutputs`. */
export interface AppTemplate extends OutputProperties<AppTemplateOutputs> {}
