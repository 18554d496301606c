/** Generated from resources/apiToken.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { ApiTokenArgs, ApiTokenOutputs } from "../apiToken";

const SHAPE: ClassShape = {
  kind: "ApiToken",
  outputs: ["workspaceId", "name", "subject", "subjectId", "grants", "expiresInDays", "expires", "origin", "created", "lastUsed", "code"],
  secretOutputs: ["code"],
  secretInputs: [],
};

/** A workspace (or resource) API token, created with the ADMINISTRATOR role. Its plaintext `code` is a secret output captured at creation (the API never shows it again); every change replaces the token, which issues a new code. User-scope tokens are not offered: the API lets only a browser login session create them (spec part 1, Tokens rule 1), and this provider authenticates with an API token. */
export class ApiToken extends DynamicResource {
  constructor(name: string, args: ApiTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `ApiTokenOutputs`. */
export interface ApiToken extends OutputProperties<ApiTokenOutputs> {}
