/** Generated from resources/appTemplate.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer } from "../../provider/fields/integer";

/** A default environment variable of an app template (TemplateEnv) (as a program passes it). */
export interface TemplateEnvArgs {
  /** Variable name, unique within the template. */
  key: pulumi.Input<string>;
  /** Default value; may contain placeholders resolved at deploy ({{host_port.<port name>}}, {{container_port.<port name>}}, {{instance.ip4}}, {{instance.ip6}}, {{random:<1-128>}}). null (the default): whoever deploys must supply it. */
  value?: pulumi.Input<string | null>;
  /** What the variable is for. */
  description?: pulumi.Input<string>;
}

/** A default environment variable of an app template (TemplateEnv) (as recorded). */
export interface TemplateEnv {
  /** Variable name, unique within the template. */
  key: string;
  /** Default value; may contain placeholders resolved at deploy ({{host_port.<port name>}}, {{container_port.<port name>}}, {{instance.ip4}}, {{instance.ip6}}, {{random:<1-128>}}). null (the default): whoever deploys must supply it. */
  value: string | null;
  /** What the variable is for. */
  description: string;
}

/** A named port of an app template (TemplatePort) (as a program passes it). */
export interface TemplatePortArgs {
  /** Slug (lower-case letters, digits, - and _), unique within the template; placeholders reference it. */
  name: pulumi.Input<string>;
  /** What the port serves. */
  description?: pulumi.Input<string>;
  /** Port the container listens on; the deployed app's host port defaults to it when free. */
  containerPort: pulumi.Input<Integer>;
  /** TCP (default) or UDP. */
  protocol?: pulumi.Input<"TCP" | "UDP">;
  /** Serves HTTP (eligible for a custom domain); at most one port per template. */
  http?: pulumi.Input<boolean>;
}

/** A named port of an app template (TemplatePort) (as recorded). */
export interface TemplatePort {
  /** Slug (lower-case letters, digits, - and _), unique within the template; placeholders reference it. */
  name: string;
  /** What the port serves. */
  description: string;
  /** Port the container listens on; the deployed app's host port defaults to it when free. */
  containerPort: Integer;
  /** TCP (default) or UDP. */
  protocol: "TCP" | "UDP";
  /** Serves HTTP (eligible for a custom domain); at most one port per template. */
  http: boolean;
}

/** A volume mount (AppVolumeMount) (as a program passes it). */
export interface AppMountArgs {
  /** Absolute path on the instance host. */
  hostPath: pulumi.Input<string>;
  /** Absolute mount path inside the container. */
  containerPath: pulumi.Input<string>;
  /** Mount read-only (default false). */
  readOnly?: pulumi.Input<boolean>;
}

/** A volume mount (AppVolumeMount) (as recorded). */
export interface Mount {
  /** Absolute path on the instance host. */
  hostPath: string;
  /** Absolute mount path inside the container. */
  containerPath: string;
  /** Mount read-only (default false). */
  readOnly: boolean;
}

/** The arguments of a `AppTemplate`. */
export interface AppTemplateArgs extends CommonArgs {
  /** Globally unique name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** What the app does (required). Changing it updates the resource in place. */
  description: pulumi.Input<string>;
  /** Container image with a tag, e.g. louislam/uptime-kuma:1.23.13. Changing it updates the resource in place. */
  image: pulumi.Input<string>;
  /** Catalogue category, such as AI, AUTOMATION, DEVOPS, GAMES, MEDIA, MONITORING or PRODUCTIVITY (the spec's examples; the API decides which it accepts); omit or null for none. Changing it updates the resource in place. */
  category?: pulumi.Input<string | null>;
  /** Default environment; replaced as a whole. Changing it updates the resource in place. */
  environment?: pulumi.Input<pulumi.Input<TemplateEnvArgs>[]>;
  /** Default mounts; replaced as a whole. Changing it updates the resource in place. */
  mounts?: pulumi.Input<pulumi.Input<AppMountArgs>[]>;
  /** Named ports (at most one with http true); replaced as a whole. Changing it updates the resource in place. */
  ports?: pulumi.Input<pulumi.Input<TemplatePortArgs>[]>;
}

/** What a `AppTemplate` records: its outputs, each also a typed property of the class. */
export interface AppTemplateOutputs extends Record<string, unknown> {
  /** Globally unique name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** What the app does (required). Changing it updates the resource in place. */
  description: string;
  /** Container image with a tag, e.g. louislam/uptime-kuma:1.23.13. Changing it updates the resource in place. */
  image: string;
  /** Catalogue category, such as AI, AUTOMATION, DEVOPS, GAMES, MEDIA, MONITORING or PRODUCTIVITY (the spec's examples; the API decides which it accepts); omit or null for none. Changing it updates the resource in place. */
  category: string | null;
  /** Default environment; replaced as a whole. Changing it updates the resource in place. */
  environment: TemplateEnv[];
  /** Default mounts; replaced as a whole. Changing it updates the resource in place. */
  mounts: Mount[];
  /** Named ports (at most one with http true); replaced as a whole. Changing it updates the resource in place. */
  ports: TemplatePort[];
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
  /** Last change (ISO 8601), as the API reports it. */
  updatedAt: string;
}

const SHAPE: ClassShape = {
  kind: "AppTemplate",
  autonamed: true,
  outputs: ["name", "description", "image", "category", "environment", "mounts", "ports", "createdAt", "updatedAt"],
  secretOutputs: [],
  secretInputs: [],
};

/** A staff-curated app definition that Apps deploy from (`templateId`). Every change is made in place. Needs an operator (staff) token: set svc:token to one in the stack that declares it. */
export class AppTemplate extends CustomResource {
  constructor(name: string, args: AppTemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `AppTemplateOutputs`. */
export interface AppTemplate extends OutputProperties<AppTemplateOutputs> {}
