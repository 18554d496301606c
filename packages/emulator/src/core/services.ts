/**
 * Everything a route handler or workflow effect may use, bundled once per emulator instance.
 */
import type { Store } from "./store";
import type { Clock } from "./clock";
import type { Workflows } from "./workflows";
import type { Faults } from "./faults";
import type { RateLimiter } from "./ratelimit";
import type { RequestLog } from "./requestLog";
import type { AuditEntryView } from "./choices";
import type { AuditRow, MailKind } from "../model";

export interface EmulatorSettings {
  /** How long a workflow takes, QUEUED to its end (--workflow-ms). */
  workflowMs: number;
  /** Registry credentials the simulated "live registry" accepts: host -> username -> password. */
  registryAccounts: Record<string, Record<string, string>>;
  /** Where state is persisted after every change (--state), or null. */
  stateFile: string | null;
  /** Public base URL of this emulator (signed upload URLs point here); set once listening. */
  baseUrl: string;
}

export interface Services {
  store: Store;
  clock: Clock;
  workflows: Workflows;
  faults: Faults;
  rateLimiter: RateLimiter;
  requestLog: RequestLog;
  settings: EmulatorSettings;
}

export function sendMail(services: Services, to: string, kind: MailKind, code: string | null): void {
  const { store, clock } = services;
  store.t.mail.insert({ id: store.newId(), to: to.toLowerCase(), kind, code, sent: clock.iso() });
}

/** Records an audit entry and returns its view (the audit entry shape is a "not shown" choice). */
export function audit(
  services: Services,
  entry: { workspaceId: string | null; actorId: string | null; action: string; target: { kind: string; id: string } | null },
): AuditEntryView {
  const { store, clock } = services;
  const row: AuditRow = { id: store.newId(), ...entry, created: clock.iso() };
  store.t.audit.insert(row);
  return auditView(services, row);
}

export function auditView(services: Services, row: AuditRow): AuditEntryView {
  const actor = row.actorId ? services.store.t.users.get(row.actorId) : undefined;
  return {
    id: row.id,
    action: row.action,
    target: row.target,
    actor: actor ? { id: actor.id, name: actor.name } : null,
    workspace_id: row.workspaceId,
    created: row.created,
  };
}
