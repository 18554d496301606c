/**
 * Shapes the spec leaves "not shown", chosen once here (and listed in emulator/README.md).
 * Resource-specific view shapes live in each route module's `view` function; this file holds
 * the envelopes shared across areas.
 */
import type { FieldError } from "./errors";

export interface WorkflowView {
  id: string;
  name: string;
  state: string;
}

/** WorkflowWithResource (part 1): member names not shown. Chosen: `workflow` and `resource`. */
export function workflowWithResource(workflow: WorkflowView, resource: unknown, extra: Record<string, unknown> = {}) {
  return { workflow, resource, ...extra };
}

/** WorkflowData (part 3, firewall rule delete): not shown. Chosen: `workflow` and `data`. */
export function workflowData(workflow: WorkflowView | null, data: Record<string, unknown>) {
  return { workflow, data };
}

export interface AuditEntryView {
  id: string;
  action: string;
  target: { kind: string; id: string } | null;
  actor: { id: string; name: string } | null;
  workspace_id: string | null;
  created: string;
}

/** Field-error body of a 400 (part 1, "Errors": shape not shown). */
export function fieldErrorBody(message: string, errors: FieldError[]) {
  return { message, errors };
}
