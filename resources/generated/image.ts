/** Generated from resources/image.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import { inProgram } from "../inProgram";
import type { ImageArgs, ImageOutputs } from "../image";

const SHAPE: ClassShape = {
  kind: "Image",
  outputs: [
    "workspaceId",
    "kind",
    "name",
    "source",
    "description",
    "group",
    "os",
    "uefi",
    "fileSha256",
    "size",
    "state",
    "official",
    "deprecated",
    "createdAt",
  ],
  secretOutputs: [],
  secretInputs: [],
};

/** A template, backup or ISO image of the workspace; an ISO can be uploaded from a local file. */
export class Image extends DynamicResource {
  constructor(name: string, args: ImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, inProgram.Image(args), opts));
  }
}

/** Typed properties: one `Output` per field of `ImageOutputs`. */
export interface Image extends OutputProperties<ImageOutputs> {}
