/**
 * Routes are data: each API area exports a table of `RouteDef`s, and the server mounts them
 * behind its one request pipeline (`PIPELINE` in emulator/server.ts).
 * A handler gets a `RouteContext` and returns a `Reply`, or throws an `ApiError`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Services } from "./services";
import { access, requireStaff, type AccessNeed, type Principal } from "./auth";
import type { Role, WorkflowRow } from "../model";
import type { StartWorkflow } from "./workflows";
import type { RequestFaults } from "./faults";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Plain text instead of JSON (logs). */
  text?: string;
  /** Takes over the raw response (server-sent events). */
  stream?: (request: FastifyRequest, reply: FastifyReply) => void;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body?: unknown): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });
/** 200 with no body (several part 3 endpoints: "200, no body"). */
export const okEmpty = (): Reply => ({ status: 200 });

export interface RouteContext extends Services {
  services: Services;
  /** The authenticated caller; throws for routes declared `auth: "none"`. */
  principal: Principal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  request: FastifyRequest;
  /** Checks the caller's role and grants on a workspace (404 when invisible, 403 when not allowed). */
  access(workspaceId: string, need?: AccessNeed): Role;
  /** Administrator-only / operator-only endpoints. */
  requireStaff(): void;
  /** Starts a workflow, honouring workflow faults injected for this request. */
  startWorkflow(opts: StartWorkflow): WorkflowRow;
}

export interface RouteDef {
  method: Method;
  /** Fastify path syntax: /v1/disks/:did */
  path: string;
  /** "token" (default): bearer token required; "none": no authentication; "optional": used when sent. */
  auth?: "token" | "none" | "optional";
  /** Account lifecycle endpoint: tighter rate limit. */
  lifecycle?: boolean;
  /** Body arrives as a readable stream (uploads). */
  streamBody?: boolean;
  handler(ctx: RouteContext): Reply | Promise<Reply>;
}

/** What a route's handler gets for one request. */
export function routeContext(
  services: Services,
  request: FastifyRequest,
  principal: Principal | null,
  requestFaults: RequestFaults,
): RouteContext {
  const ctx: RouteContext = {
    ...services,
    services,
    get principal(): Principal {
      if (!principal) throw new Error("internal: route used the principal without authentication");
      return principal;
    },
    params: (request.params ?? {}) as Record<string, string>,
    query: (request.query ?? {}) as Record<string, unknown>,
    body: request.body,
    headers: request.headers,
    ip: request.ip,
    request,
    access: (workspaceId, need) => access(services, ctx.principal, workspaceId, need),
    requireStaff: () => requireStaff(ctx.principal),
    startWorkflow: (opts) => services.workflows.start({ outcome: requestFaults.workflowOutcome, ...opts }),
  };
  return ctx;
}
