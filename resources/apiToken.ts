/**
 * ApiToken — a workspace or resource API token (spec part 1, Tokens; Token object; Grants map).
 *
 *   POST   /v1/workspaces/{wid}/tokens   name (4-48), expires (7-365 days from now), grants,
 *                                        subject (WORKSPACE default | RESOURCE), subject_id
 *                                        -> 201 token creation response, with the plaintext `code`
 *   GET    /v1/tokens/{id}               token object (never the code); 404 once expired
 *   DELETE /v1/tokens/{id}               202; the token is invalid at once
 *
 * The API has no update for tokens: every field replaces the token (a new code). The plaintext
 * code appears only in the creation response ("never returned again; only a hash is stored"): it
 * is kept in the stack as a secret output and survives refresh.
 *
 * Only workspace-scope tokens are supported. User-scope tokens (POST /v1/tokens) can only be
 * created by a browser login session — "a request authenticated by an API token gets 403 with
 * the message Only login sessions can create tokens" (spec part 1, Tokens rule 1) — and this
 * provider always authenticates with an API token (svc:token).
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "../provider/fields/zod";
import { createdDuring, type OperationContext } from "../provider/context";
import { ApiError } from "../provider/errors";
import {
  autonamed,
  computed,
  fieldSet,
  fromFields,
  input,
  type InputsOf,
  type OutputsOf,
  owningWorkspace,
  createdAt,
} from "../provider/fields/declare";
import { createBody, outputsFromAnswer } from "../provider/fields/convert";
import { listAll } from "../provider/client/paging";
import { zId, zInteger, zText } from "../provider/fields/constraints";
import { compact, idOf, wireId } from "../provider/client/wire";
import { type ResourceDefinition, type Rule } from "../provider/definition";
import type { ApiTokenArgs, ApiTokenOutputs } from "./generated/apiToken";
import { replace } from "../provider/fields/changeEffects";

const WHERE = "spec part 1, Tokens";

// 1. Inputs and outputs, each field declared once (provider/fields/declare.ts), and rules. The API has no
// update for tokens: every field replaces the token (a new code).
const DAY_MS = 86_400_000;

const GRANT_KINDS = ["WORKSPACE", "INSTANCE", "DEDIBOX", "APP", "IMAGE", "NET_BALANCER", "DISK", "FLOATING_IP"] as const;
type GrantKind = (typeof GRANT_KINDS)[number];
type Grants = Partial<Record<GrantKind, "READ" | "WRITE">>;

/** Grants map: known kinds only; NONE is dropped (as the API does); not empty afterwards. */
const zGrants = z
  .record(z.string(), z.enum(["NONE", "READ", "WRITE"], { error: "must be NONE, READ or WRITE (spec part 1, Grants map)" }), {
    error: "must be an object of resource kind to NONE, READ or WRITE (spec part 1, Grants map)",
  })
  .superRefine((map, ctx) => {
    for (const key of Object.keys(map)) {
      if (!(GRANT_KINDS as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `unknown resource kind; the grants map takes ${GRANT_KINDS.join(", ")} (spec part 1, Grants map)`,
        });
      }
    }
  })
  .transform((map): Grants => Object.fromEntries(Object.entries(map).filter(([, v]) => v !== "NONE")) as Grants)
  .refine((g) => Object.keys(g).length > 0, {
    message: "may not be empty: grant at least one kind READ or WRITE (kinds set to NONE are dropped; spec part 1, Grants map)",
  });

/** @internal */
export const apiTokenFields = fieldSet({
  workspaceId: {
    ...owningWorkspace,
    fromAnswer: (t: ApiTokenView, prior) => idOf(t.workspace_id) ?? (prior.workspaceId as string | undefined) ?? "",
  },
  name: autonamed(input(zText(4, 48, WHERE), { doc: "4 to 48 characters.", onChange: replace })),
  subject: input(z.enum(["WORKSPACE", "RESOURCE"], { error: `must be WORKSPACE or RESOURCE (${WHERE}: subject)` }).default("WORKSPACE"), {
    doc: "WORKSPACE (default: the token reaches the workspace) or RESOURCE (one INSTANCE, DEDIBOX or APP, named by subjectId).",
    onChange: replace,
  }),
  subjectId: input(zId("INSTANCE, DEDIBOX or APP id").optional(), {
    doc: "With subject RESOURCE only: the id of an INSTANCE, DEDIBOX or APP of the workspace (omitted for a WORKSPACE token, whose subject the API reports as the workspace).",
    onChange: replace,
    wire: "subject_id",
    fromAnswer: (t: ApiTokenView) => (t.subject === "RESOURCE" ? idOf(t.subject_id)! : undefined),
  }),
  grants: input(zGrants, {
    doc: `Resource kind (${GRANT_KINDS.map((k) => `\`${k}\``).join(", ")}) to \`NONE\`, \`READ\` or \`WRITE\`. NONE entries are dropped, as the API does; at least one kind must remain.`,
    onChange: replace,
    fromAnswer: (t: ApiTokenView): Grants => ({ ...t.grants }),
  }),
  expiresInDays: input(
    zInteger(`must be a whole number of days (${WHERE}: expires is 7 to 365 days from now)`)
      .min(7, `must be 7 to 365 days (${WHERE}: expires is at least 7 and at most 365 days from now)`)
      .max(365, `must be 7 to 365 days (${WHERE}: expires is at least 7 and at most 365 days from now)`),
    {
      doc: "Lifetime in whole days, 7 to 365 (the API's bounds); the absolute expiry (`expires`) is computed when the token is created. An expired token reads as gone: `pulumi refresh` drops it and the next `pulumi up` creates a new one.",
      onChange: replace,
      // Sent as the absolute `expires` (createRequest).
      create: false,
      fromAnswer: (t: ApiTokenView, prior) => lifetimeOf(t, prior),
    },
  ),
  expires: computed<string | null>({ doc: "Absolute expiry (ISO 8601).", stable: true }),
  origin: computed<string>({ doc: "How the token was created, as the API reports it: SESSION, API, SYSTEM or OAUTH.", stable: true }),
  created: computed<string>({ doc: createdAt.doc, stable: true }),
  lastUsed: computed<string | null>({
    doc: "Last use as of the last create or refresh, or null.",
    fromAnswer: (t: ApiTokenView) => t.last_used ?? null,
  }),
  // Only in the creation response ("never returned again; only a hash is stored"): kept from state.
  code: computed<string | undefined>({ doc: "The plaintext token, from the creation response only.", secret: true, kept: true }),
});
type Inputs = InputsOf<typeof apiTokenFields>;
type Outputs = OutputsOf<typeof apiTokenFields>;

const rules: Rule<Inputs>[] = [
  {
    fields: ["subject", "subjectId"],
    property: "subjectId",
    check: (i) =>
      i.subject === "RESOURCE" && i.subjectId === undefined
        ? `a RESOURCE token needs subjectId: the id of an INSTANCE, DEDIBOX or APP of the workspace (${WHERE}: subject_id is required when subject is RESOURCE)`
        : i.subject !== "RESOURCE" && i.subjectId !== undefined
          ? `subjectId is only for subject RESOURCE; a WORKSPACE token is bound to its workspace (${WHERE}, rule 2: omit subject and subject_id, or send subject WORKSPACE)`
          : undefined,
  },
];

// 2. API mapping.
interface ApiTokenView {
  id: string;
  name: string;
  created: string;
  expires: string | null;
  origin: string;
  subject: string;
  subject_id: string;
  workspace_id: string | null;
  grants: Grants;
  last_used?: string | null;
  code?: string;
}

/**
 * The lifetime in days: as requested when this stack created the token (the expiry is computed
 * from this machine's clock, the creation time from the API's), as recorded for the same token,
 * else (adoption) derived from the API's created and expires.
 */
function lifetimeOf(t: ApiTokenView, prior: Record<string, unknown>): number {
  // Just created (the create answer's code is in hand) or already recorded for this expiry.
  const requested = prior.code !== undefined || prior.expires === t.expires ? (prior.expiresInDays as number | undefined) : undefined;
  if (requested !== undefined) return requested;
  return t.expires ? Math.round((Date.parse(t.expires) - Date.parse(t.created)) / DAY_MS) : 0;
}

const toOutputs = (t: ApiTokenView, prior: Partial<Outputs>): Outputs => outputsFromAnswer(apiTokenFields, t, prior);

async function get(ctx: OperationContext, id: string, prior: Partial<Outputs>): Promise<Outputs | undefined> {
  try {
    return toOutputs(await ctx.client.get<ApiTokenView>(`/v1/tokens/${id}`), prior);
  } catch (err) {
    // An expired token answers 404 too: it is gone.
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
}

/** The create request: the inputs in the API's names (the subject as a bare integer id), and the absolute expiry. */
const createRequest = (i: Inputs) =>
  compact({
    ...createBody(apiTokenFields, i),
    subject_id: i.subjectId === undefined ? undefined : wireId(i.subjectId),
    expires: new Date(Date.now() + i.expiresInDays * DAY_MS).toISOString(),
  });

// 3. The definition: what a change does (its effects) and the API calls.
/** @internal */
export const apiTokenDefinition: ResourceDefinition<Inputs, Outputs> = {
  kind: "ApiToken",
  doc: "A workspace (or resource) API token, created with the ADMINISTRATOR role. Its plaintext `code` is a secret output captured at creation (the API never shows it again); every change replaces the token, which issues a new code. User-scope tokens are not offered: the API lets only a browser login session create them (spec part 1, Tokens rule 1), and this provider authenticates with an API token.",
  ...fromFields(apiTokenFields),
  rules,
  pricing: { notMetered: "access, not capacity: no rate card meters it" },
  api: {
    async create(ctx, i) {
      let token: ApiTokenView;
      try {
        token = await ctx.client.post<ApiTokenView>(`/v1/workspaces/${i.workspaceId}/tokens`, createRequest(i));
      } catch (err) {
        if (err instanceof ApiError && err.status === 403) {
          throw new Error(
            `${ctx.label}: the API refused to create the token: ${err.reason ?? err.message} (${WHERE}: a workspace token needs the ADMINISTRATOR role and WRITE on WORKSPACE).`,
          );
        }
        throw err;
      }
      // The plaintext code exists only in this answer (spec part 1: never returned again).
      return { id: String(token.id), outputs: { code: token.code } };
    },
    // The workspace's API tokens (sessions are people's logins, no object to declare).
    async list(ctx, workspaceId) {
      const tokens = await listAll<ApiTokenView>(ctx.client, `/v1/workspaces/${workspaceId}/tokens`);
      return tokens.map((t) => ({
        id: String(t.id),
        name: t.name,
        ...(t.origin !== "API" ? { leftOut: `a ${t.origin} token: only API tokens are made through the token endpoints` } : {}),
      }));
    },
    // A token whose creation answer was lost is useless (its code is gone for good): it is
    // revoked, and the lifecycle then creates it again.
    async findExisting(ctx, i) {
      const found = await listAll<ApiTokenView>(ctx.client, `/v1/workspaces/${i.workspaceId}/tokens`, { name: i.name, origin: "API" });
      const orphans = found.filter(
        (t) => t.name === i.name && t.subject === i.subject && isDeepStrictEqual(t.grants, i.grants) && createdDuring(ctx, t.created),
      );
      for (const t of orphans) {
        ctx.notice(
          `the create answer was lost with the token's code; revoking the token the API created (id ${t.id}) so it can be created again`,
        );
        try {
          await ctx.client.delete(`/v1/tokens/${t.id}`);
        } catch (err) {
          if (!(err instanceof ApiError && err.notFound)) throw err;
        }
      }
      return undefined;
    },
    get: (ctx, id, prior) => get(ctx, id, prior),
    async delete(ctx, id) {
      await ctx.client.delete(`/v1/tokens/${id}`);
      return null;
    },
  },
};

// 4. The public Args: generated from the fields, with the class (resources/generated/apiToken.ts).
export type { ApiTokenArgs, ApiTokenOutputs };
