/** Generated from resources/image.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { WideInteger } from "../../provider/fields/integer";
import { inProgram } from "../inProgram";

/** Where an image comes from, by type (as a program passes it). */
export type ImageSourceArgs =
  | {
      /** URL: downloaded from an http or https URL. */
      type: "URL";
      /** An http or https URL. */
      url: pulumi.Input<string>;
    }
  | {
      /** BACKUP: a backup image promoted. */
      type: "BACKUP";
      /** The backup image to promote. */
      backupId: pulumi.Input<string>;
    }
  | {
      /** INSTANCE: made from a disk of an instance. */
      type: "INSTANCE";
      /** The instance. */
      instanceId: pulumi.Input<string>;
      /** Its disk; default the boot disk. */
      diskId?: pulumi.Input<string>;
    }
  | {
      /** UPLOAD: an ISO uploaded from a local file. */
      type: "UPLOAD";
      /** The local file, streamed to the API; a relative path is resolved against the program's directory. */
      filePath: pulumi.Input<string>;
    };

/** Where an image comes from, by type (as recorded). */
export type ImageSource =
  | {
      /** URL: downloaded from an http or https URL. */
      type: "URL";
      /** An http or https URL. */
      url: string;
    }
  | {
      /** BACKUP: a backup image promoted. */
      type: "BACKUP";
      /** The backup image to promote. */
      backupId: string;
    }
  | {
      /** INSTANCE: made from a disk of an instance. */
      type: "INSTANCE";
      /** The instance. */
      instanceId: string;
      /** Its disk; default the boot disk. */
      diskId?: string;
    }
  | {
      /** UPLOAD: an ISO uploaded from a local file. */
      type: "UPLOAD";
      /** The local file, streamed to the API; a relative path is resolved against the program's directory. */
      filePath: string;
    };

/** The arguments of a `Image`. */
export interface ImageArgs extends CommonArgs {
  /** TEMPLATE, BACKUP or ISO. Changing it replaces the resource. */
  kind: pulumi.Input<"ISO" | "TEMPLATE" | "BACKUP">;
  /** 4 to 64 characters at creation; a rename in place (PATCH) takes 4 to 32. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** Where the image comes from: URL (url: http or https), BACKUP (backupId), INSTANCE (instanceId, diskId: default the boot disk) or, for an ISO, UPLOAD (filePath: a local file, streamed to the API; relative paths are resolved against the program's directory). An UPLOAD file moved with the same content is only recorded (its SHA-256, fileSha256, decides); any other change replaces the image. Depending on the change, it is made in place or replaces the resource. */
  source: pulumi.Input<ImageSourceArgs>;
  /** 4 to 1000 characters. Changing it updates the resource in place. */
  description?: pulumi.Input<string>;
  /** Catalogue group such as linux or windows, 4 to 32 characters. Changing it updates the resource in place. */
  group?: pulumi.Input<string>;
  /** Operating system: family LINUX, WINDOWS or BSD, optional display name; null clears. Changing it updates the resource in place. */
  os?: pulumi.Input<{ family: pulumi.Input<"LINUX" | "WINDOWS" | "BSD">; name?: pulumi.Input<string> } | null>;
  /** Boots with UEFI. Changing it replaces the resource. */
  uefi?: pulumi.Input<boolean>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `Image` records: its outputs, each also a typed property of the class. */
export interface ImageOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** TEMPLATE, BACKUP or ISO. Changing it replaces the resource. */
  kind: "ISO" | "TEMPLATE" | "BACKUP";
  /** 4 to 64 characters at creation; a rename in place (PATCH) takes 4 to 32. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** Where the image comes from: URL (url: http or https), BACKUP (backupId), INSTANCE (instanceId, diskId: default the boot disk) or, for an ISO, UPLOAD (filePath: a local file, streamed to the API; relative paths are resolved against the program's directory). An UPLOAD file moved with the same content is only recorded (its SHA-256, fileSha256, decides); any other change replaces the image. Depending on the change, it is made in place or replaces the resource. */
  source: ImageSource;
  /** 4 to 1000 characters. Changing it updates the resource in place. */
  description?: string;
  /** Catalogue group such as linux or windows, 4 to 32 characters. Changing it updates the resource in place. */
  group?: string;
  /** Operating system: family LINUX, WINDOWS or BSD, optional display name; null clears. Changing it updates the resource in place. */
  os?: { family: "LINUX" | "WINDOWS" | "BSD"; name?: string } | null;
  /** Boots with UEFI. Changing it replaces the resource. */
  uefi: boolean;
  /** UPLOAD: SHA-256 of the uploaded file, computed at preview. Changing it replaces the resource. */
  fileSha256?: string;
  /** Bytes. */
  size: WideInteger;
  /** PENDING, AVAILABLE, FAILED, DELETING. */
  state: string;
  /** Whether the platform provides the image (false: the workspace's own; spec part 2, Images: official). */
  official: boolean;
  /** Whether the image is marked deprecated. */
  deprecated: boolean;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "Image",
  autonamed: true,
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
export class Image extends CustomResource {
  constructor(name: string, args: ImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, inProgram.Image(args), opts));
  }
}

/** Typed properties: one `Output` per field of `ImageOutputs`. */
export interface Image extends OutputProperties<ImageOutputs> {}
