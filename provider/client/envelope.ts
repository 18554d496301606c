/**
 * The only place that knows the shapes the spec leaves open ("not shown"): the member names of
 * WorkflowWithResource and WorkflowData, the audit log entry. Readers are tolerant (they accept
 * the likely spellings) and fail with a clear message when a shape cannot be understood, rather
 * than guessing silently.
 */
export interface Workflow {
  id: string;
  name: string;
  state: WorkflowState;
}

type WorkflowState = "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "ABORTED" | "TIMED_OUT";

const WORKFLOW_STATES = new Set(["QUEUED", "RUNNING", "COMPLETED", "FAILED", "ABORTED", "TIMED_OUT"]);

export class EnvelopeError extends Error {
  constructor(what: string, body: unknown) {
    const keys = body && typeof body === "object" ? Object.keys(body).join(", ") : typeof body;
    super(`could not understand the API's ${what} (keys: ${keys}); this provider version may not match the API`);
    this.name = "EnvelopeError";
  }
}

function isWorkflow(v: unknown): v is Workflow {
  return !!v && typeof v === "object" && "id" in v && "state" in v && WORKFLOW_STATES.has(String((v as Workflow).state));
}

const WORKFLOW_KEYS = ["workflow", "wf", "task"];
const RESOURCE_KEYS = ["resource", "data", "result", "item", "object"];

/** The workflow of an asynchronous answer: a bare Workflow, or the workflow member of a wrapper. */
export function workflowOf(body: unknown, what = "workflow answer"): Workflow {
  if (isWorkflow(body)) return { id: String(body.id), name: String(body.name ?? ""), state: body.state };
  for (const key of WORKFLOW_KEYS) {
    const v = (body as Record<string, unknown> | null)?.[key];
    if (isWorkflow(v)) return { id: String(v.id), name: String(v.name ?? ""), state: v.state };
  }
  throw new EnvelopeError(what, body);
}

/** The workflow of an answer when there may be none (WorkflowData carries `null` when immediate). */
export function optionalWorkflowOf(body: unknown): Workflow | null {
  try {
    return workflowOf(body);
  } catch {
    return null;
  }
}

/** The resource of a WorkflowWithResource (member name not shown): `resource`, `data`, ... or a kind name. */
export function resourceOf<T = Record<string, unknown>>(body: unknown, kindKeys: string[] = [], what = "WorkflowWithResource answer"): T {
  const obj = body as Record<string, unknown> | null;
  for (const key of [...RESOURCE_KEYS, ...kindKeys]) {
    const v = obj?.[key];
    if (v && typeof v === "object" && "id" in (v as object)) return v as T;
  }
  throw new EnvelopeError(what, body);
}
