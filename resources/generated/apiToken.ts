/** Generated from resources/apiToken.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer } from "../../provider/fields/integer";

/** The arguments of a `ApiToken`. */
export interface ApiTokenArgs extends CommonArgs {
  /** 4 to 48 characters. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name?: pulumi.Input<string>;
  /** WORKSPACE (default: the token reaches the workspace) or RESOURCE (one INSTANCE, DEDIBOX or APP, named by subjectId). Changing it replaces the resource. */
  subject?: pulumi.Input<"WORKSPACE" | "RESOURCE">;
  /** With subject RESOURCE only: the id of an INSTANCE, DEDIBOX or APP of the workspace (omitted for a WORKSPACE token, whose subject the API reports as the workspace). Changing it replaces the resource. */
  subjectId?: pulumi.Input<string>;
  /** Resource kind (`WORKSPACE`, `INSTANCE`, `DEDIBOX`, `APP`, `IMAGE`, `NET_BALANCER`, `DISK`, `FLOATING_IP`) to `NONE`, `READ` or `WRITE`. NONE entries are dropped, as the API does; at least one kind must remain. Changing it replaces the resource. */
  grants: pulumi.Input<Record<string, pulumi.Input<"NONE" | "READ" | "WRITE">>>;
  /** Lifetime in whole days, 7 to 365 (the API's bounds); the absolute expiry (`expires`) is computed when the token is created. An expired token reads as gone: `pulumi refresh` drops it and the next `pulumi up` creates a new one. Changing it replaces the resource. */
  expiresInDays: pulumi.Input<Integer>;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `ApiToken` records: its outputs, each also a typed property of the class. */
export interface ApiTokenOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** 4 to 48 characters. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name: string;
  /** WORKSPACE (default: the token reaches the workspace) or RESOURCE (one INSTANCE, DEDIBOX or APP, named by subjectId). Changing it replaces the resource. */
  subject: "WORKSPACE" | "RESOURCE";
  /** With subject RESOURCE only: the id of an INSTANCE, DEDIBOX or APP of the workspace (omitted for a WORKSPACE token, whose subject the API reports as the workspace). Changing it replaces the resource. */
  subjectId?: string;
  /** Resource kind (`WORKSPACE`, `INSTANCE`, `DEDIBOX`, `APP`, `IMAGE`, `NET_BALANCER`, `DISK`, `FLOATING_IP`) to `NONE`, `READ` or `WRITE`. NONE entries are dropped, as the API does; at least one kind must remain. Changing it replaces the resource. */
  grants: Partial<
    Record<"DISK" | "WORKSPACE" | "INSTANCE" | "DEDIBOX" | "APP" | "IMAGE" | "NET_BALANCER" | "FLOATING_IP", "READ" | "WRITE">
  >;
  /** Lifetime in whole days, 7 to 365 (the API's bounds); the absolute expiry (`expires`) is computed when the token is created. An expired token reads as gone: `pulumi refresh` drops it and the next `pulumi up` creates a new one. Changing it replaces the resource. */
  expiresInDays: Integer;
  /** Absolute expiry (ISO 8601). */
  expires: string | null;
  /** How the token was created, as the API reports it: SESSION, API, SYSTEM or OAUTH. */
  origin: string;
  /** Creation time (ISO 8601), as the API reports it. */
  created: string;
  /** Last use as of the last create or refresh, or null. */
  lastUsed: string | null;
  /** The plaintext token, from the creation response only. */
  code?: string;
}

const SHAPE: ClassShape = {
  kind: "ApiToken",
  autonamed: true,
  outputs: ["workspaceId", "name", "subject", "subjectId", "grants", "expiresInDays", "expires", "origin", "created", "lastUsed", "code"],
  secretOutputs: ["code"],
  secretInputs: [],
};

/** A workspace (or resource) API token, created with the ADMINISTRATOR role. Its plaintext `code` is a secret output captured at creation (the API never shows it again); every change replaces the token, which issues a new code. User-scope tokens are not offered: the API lets only a browser login session create them (spec part 1, Tokens rule 1), and this provider authenticates with an API token. */
export class ApiToken extends CustomResource {
  constructor(name: string, args: ApiTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `ApiTokenOutputs`. */
export interface ApiToken extends OutputProperties<ApiTokenOutputs> {}
