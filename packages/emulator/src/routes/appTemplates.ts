/**
 * Part 2 App templates, the HTTP side: request schemas, the list and the route table. Any valid
 * token reads them; writes are staff only (a user-scoped token gets 400, part 1 "Errors"). The
 * rules, the shared value rules and the seeded templates are the area's domain
 * (domain/appTemplates.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { badRequest, fieldError } from "../core/errors";
import { paginate } from "../core/paging";
import { created, noContent, ok, type RouteContext } from "../core/router";
import { contains, parseWith, pathId, queryEnum } from "../core/validation";
import {
  createTemplate,
  deleteTemplate,
  loadTemplate,
  seedTemplates,
  templateDetail,
  templateSummary,
  updateTemplate,
  zEnvKey,
  zImageRef,
  zMount,
  zPortNumber,
  zProtocol,
  APP_CATEGORIES,
} from "../domain/appTemplates";

// ---------------------------------------------------------------------------------------------
// Requests

const zTemplateEnv = z.object({
  key: zEnvKey,
  value: z.string().max(65536).nullable().default(null),
  description: z.string().max(1000).default(""),
});

const zTemplatePort = z.object({
  name: z
    .string()
    .max(32)
    .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, "must be a lowercase slug (letters, digits, - and _)"),
  description: z.string().max(1000).default(""),
  container_port: zPortNumber,
  protocol: zProtocol.default("TCP"),
  http: z.boolean().default(false),
});

const zCategory = z.enum(APP_CATEGORIES);

const templateFields = {
  name: z.string().trim().min(1).max(64),
  description: z.string().min(1).max(1000),
  image: zImageRef,
  category: zCategory.nullable(),
  environment: z.array(zTemplateEnv).max(200),
  mounts: z.array(zMount).max(50),
  ports: z.array(zTemplatePort).max(50),
};

const CreateTemplate = z.object({
  ...templateFields,
  category: templateFields.category.default(null),
  environment: templateFields.environment.default([]),
  mounts: templateFields.mounts.default([]),
  ports: templateFields.ports.default([]),
});

const PatchTemplate = z.object({
  name: templateFields.name.optional(),
  description: templateFields.description.optional(),
  image: templateFields.image.optional(),
  category: templateFields.category.optional(),
  environment: templateFields.environment.optional(),
  mounts: templateFields.mounts.optional(),
  ports: templateFields.ports.optional(),
});

/** PATCH: only category may be null (null clears it); null for any other field is rejected. */
const NULLABLE_ON_PATCH = new Set(["category"]);

// ---------------------------------------------------------------------------------------------
// Handlers

function listTemplates(ctx: RouteContext) {
  const q = ctx.query;
  const category = queryEnum(q.category, "category", APP_CATEGORIES);
  const rows = ctx.store.t.appTemplates.filter(
    (t) =>
      (!q.q || contains(t.name, q.q) || contains(t.description, q.q) || contains(t.image, q.q) || t.id === String(q.q)) &&
      contains(t.name, q.name) &&
      contains(t.image, q.image) &&
      (!category || t.category === category),
  );
  return ok(
    paginate(rows, q, templateSummary, {
      id: (t) => t.id,
      sortable: { name: (t) => t.name.toLowerCase(), created: (t) => t.created, category: (t) => t.category },
    }),
  );
}

function createTemplateHandler(ctx: RouteContext) {
  ctx.requireStaff();
  return created(templateDetail(createTemplate(ctx.services, parseWith(CreateTemplate, ctx.body))));
}

function patchTemplate(ctx: RouteContext) {
  ctx.requireStaff();
  const row = loadTemplate(ctx.services, pathId(ctx.params.id, "id"));
  const body = ctx.body;
  if (!body || typeof body !== "object" || Array.isArray(body)) throw badRequest("Invalid body: expected a JSON object");
  for (const [key, value] of Object.entries(body)) {
    if (value === null && !NULLABLE_ON_PATCH.has(key)) throw fieldError(key, "cannot be null");
  }
  return ok(templateDetail(updateTemplate(ctx.services, row, parseWith(PatchTemplate, body))));
}

function deleteTemplateHandler(ctx: RouteContext) {
  ctx.requireStaff();
  deleteTemplate(ctx.services, loadTemplate(ctx.services, pathId(ctx.params.id, "id")));
  return noContent();
}

export const appTemplatesDomain: Domain = {
  name: "appTemplates",
  routes: [
    { method: "GET", path: "/v1/app-templates", handler: listTemplates },
    { method: "POST", path: "/v1/app-templates", handler: createTemplateHandler },
    {
      method: "GET",
      path: "/v1/app-templates/:id",
      handler: (ctx) => ok(templateDetail(loadTemplate(ctx.services, pathId(ctx.params.id, "id")))),
    },
    { method: "PATCH", path: "/v1/app-templates/:id", handler: patchTemplate },
    { method: "DELETE", path: "/v1/app-templates/:id", handler: deleteTemplateHandler },
  ],
  inventory: {
    appTemplates: { workspaceOf: () => null },
  },
  seed: seedTemplates,
};
