/**
 * Test controls under /_emulator (never under /v1): inventory, request log, fault injection,
 * reset, clock, mail outbox, settings and direct row patches for states the API cannot reach
 * (a locked instance, a tightened quota). No authentication: the emulator listens on loopback.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { FaultRuleInput } from "./core/faults";
import { stringifyJson } from "./core/json";
import type { Services } from "./core/services";
import { totpCode } from "./core/totp";
import { allDomains } from "./routes";
import { DEFAULT_RATE_LIMITS } from "./core/ratelimit";

function send(reply: FastifyReply, status: number, body?: unknown) {
  reply.code(status);
  if (body === undefined) return reply.send();
  return reply.type("application/json").send(stringifyJson(body));
}

function problem(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .header("X-Message", message.replace(/[\r\n]+/g, " "))
    .type("application/json")
    .send(JSON.stringify({ message }));
}

export interface InventoryItem {
  id: string;
  name: string | null;
  workspaceId: string | null;
  state: string | null;
}

/** Every live (non-seed) resource, by kind. */
export function inventory(services: Services, workspaceId?: string): { total: number; resources: Record<string, InventoryItem[]> } {
  services.workflows.advance();
  const resources: Record<string, InventoryItem[]> = {};
  let total = 0;
  for (const domain of allDomains) {
    for (const [table, kind] of Object.entries(domain.inventory ?? {})) {
      const items: InventoryItem[] = [];
      for (const row of services.store.table(table).all() as Array<Record<string, unknown> & { id: string; seed?: boolean }>) {
        if (row.seed) continue;
        const ws = kind.workspaceOf(row as never);
        if (workspaceId && ws !== workspaceId) continue;
        const name = kind.label ? kind.label(row as never) : ((row.name as string | undefined) ?? null);
        const state = (row.state ?? row.status ?? null) as string | null;
        items.push({ id: row.id, name, workspaceId: ws, state });
      }
      resources[table] = items;
      total += items.length;
    }
  }
  return { total, resources };
}

const SettingsInput = z.object({
  workflowMs: z.number().int().min(0).max(600_000).optional(),
  rateLimits: z
    .object({
      general: z.object({ burst: z.number().positive(), perSecond: z.number().positive() }).optional(),
      lifecycle: z.object({ burst: z.number().positive(), perSecond: z.number().positive() }).optional(),
    })
    .optional(),
  registryAccounts: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});

export function registerControlRoutes(app: FastifyInstance, services: Services, reset: () => void): void {
  app.get("/_emulator/inventory", async (request, reply) => {
    const q = request.query as { workspace?: string };
    return send(reply, 200, inventory(services, q.workspace));
  });

  app.get("/_emulator/requests", async (request, reply) => {
    const q = request.query as { since?: string; method?: string; path?: string };
    const requests = services.requestLog.list({ since: q.since ? Number(q.since) : undefined, method: q.method, pathPrefix: q.path });
    return send(reply, 200, { lastSeq: services.requestLog.lastSeq, requests });
  });
  app.delete("/_emulator/requests", async (_request, reply) => {
    services.requestLog.clear();
    return send(reply, 204);
  });

  app.get("/_emulator/faults", async (_request, reply) => send(reply, 200, { faults: services.faults.list() }));
  app.post("/_emulator/faults", async (request, reply) => {
    const parsed = FaultRuleInput.safeParse(request.body);
    if (!parsed.success)
      return problem(reply, 400, `invalid fault rule: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    try {
      return send(reply, 201, services.faults.add(parsed.data));
    } catch (err) {
      return problem(reply, 400, (err as Error).message);
    }
  });
  app.delete("/_emulator/faults", async (_request, reply) => {
    services.faults.clear();
    return send(reply, 204);
  });

  app.post("/_emulator/reset", async (_request, reply) => {
    reset();
    return send(reply, 204);
  });

  app.get("/_emulator/clock", async (_request, reply) => send(reply, 200, { now: services.clock.iso(), offsetMs: services.clock.offset }));
  app.post("/_emulator/clock", async (request, reply) => {
    const parsed = z.object({ advanceMs: z.number().int().min(0) }).safeParse(request.body);
    if (!parsed.success) return problem(reply, 400, "body must be { advanceMs: <non-negative integer> }");
    services.clock.advance(parsed.data.advanceMs);
    services.workflows.advance();
    // The clock offset is part of the persisted state: a restart must not move time backwards.
    if (services.settings.stateFile) services.store.saveTo(services.settings.stateFile, services.clock.offset);
    return send(reply, 200, { now: services.clock.iso(), offsetMs: services.clock.offset });
  });

  app.get("/_emulator/mail", async (request, reply) => {
    const q = request.query as { to?: string };
    const mail = services.store.t.mail.filter((m) => !q.to || m.to === q.to.toLowerCase());
    return send(reply, 200, { mail });
  });

  app.get("/_emulator/settings", async (_request, reply) =>
    send(reply, 200, {
      workflowMs: services.settings.workflowMs,
      rateLimits: services.rateLimiter.settings,
      registryAccounts: services.settings.registryAccounts,
    }),
  );
  app.post("/_emulator/settings", async (request, reply) => {
    const parsed = SettingsInput.safeParse(request.body);
    if (!parsed.success)
      return problem(reply, 400, `invalid settings: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    const s = parsed.data;
    if (s.workflowMs !== undefined) services.settings.workflowMs = s.workflowMs;
    if (s.registryAccounts) services.settings.registryAccounts = s.registryAccounts;
    if (s.rateLimits) services.rateLimiter.settings = { ...DEFAULT_RATE_LIMITS, ...services.rateLimiter.settings, ...s.rateLimits };
    services.rateLimiter.reset();
    return send(reply, 200, { workflowMs: services.settings.workflowMs, rateLimits: services.rateLimiter.settings });
  });

  /** Patches a row directly: states the API offers no way to reach (locked, quota, FAILED...). */
  app.patch("/_emulator/tables/:table/:id", async (request, reply) => {
    const { table, id } = request.params as { table: string; id: string };
    if (!services.store.tableNames().includes(table)) return problem(reply, 404, `no table ${table}`);
    const row = services.store.table(table).get(id);
    if (!row) return problem(reply, 404, `no row ${id} in ${table}`);
    if (!request.body || typeof request.body !== "object") return problem(reply, 400, "body must be a JSON object of fields to set");
    services.store.table(table).update(id, request.body as never);
    if (services.settings.stateFile) services.store.saveTo(services.settings.stateFile, services.clock.offset);
    return send(reply, 200, services.store.table(table).get(id));
  });
  app.get("/_emulator/tables/:table/:id", async (request, reply) => {
    const { table, id } = request.params as { table: string; id: string };
    const row = services.store.tableNames().includes(table) ? services.store.table(table).get(id) : undefined;
    return row ? send(reply, 200, row) : problem(reply, 404, `no row ${id} in ${table}`);
  });

  /** The current TOTP code for a secret (what an authenticator app would show). */
  app.get("/_emulator/totp", async (request, reply) => {
    const q = request.query as { secret?: string };
    if (!q.secret || !/^[A-Za-z2-7]+=*$/.test(q.secret)) return problem(reply, 400, "query secret is required (a base32 TOTP secret)");
    return send(reply, 200, { code: totpCode(q.secret, services.clock.now()) });
  });
}
