/**
 * The workflow clock. Every asynchronous operation (spec part 1, "Workflow") starts a workflow
 * that is QUEUED, becomes RUNNING after a fifth of `--workflow-ms`, and ends at `--workflow-ms`:
 * COMPLETED (its `onComplete` effect settles the resource) or, when a fault says so, FAILED,
 * ABORTED or TIMED_OUT (its `onFail` effect runs), or never (a "stuck" fault).
 *
 * Transitions are applied lazily, in due order, at the start of every request, so a client that
 * polls sees exactly the progression the spec describes and persisted state resumes cleanly.
 * Effects are named (not closures) so that a workflow in flight survives a restart with --state.
 */
import type { Store } from "./store";
import type { Clock } from "./clock";
import type { WorkflowOutcome, WorkflowRow } from "../model";
import type { WorkflowView } from "./choices";

/** Runs a workflow's named effect (core/workflowEffects.ts), which the emulator binds once its services exist. */
export type RunEffect = (effectName: string, workflow: WorkflowRow) => void;

/** Far future for workflows that never end ("stuck" fault); finite so the state file stays JSON. */
const NEVER = Number.MAX_SAFE_INTEGER;

export interface StartWorkflow {
  name: string;
  workspaceId: string | null;
  resource?: { kind: string; id: string } | null;
  onComplete?: string | null;
  onFail?: string | null;
  args?: Record<string, unknown>;
  /** Outcome decided by fault injection for the request that started it. */
  outcome?: WorkflowOutcome;
  /** Override of --workflow-ms for this workflow. */
  durationMs?: number;
}

export class Workflows {
  private runEffect!: RunEffect;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly durationMs: () => number,
  ) {}

  bind(runEffect: RunEffect): void {
    this.runEffect = runEffect;
  }

  start(opts: StartWorkflow): WorkflowRow {
    const now = this.clock.now();
    const duration = Math.max(0, opts.durationMs ?? this.durationMs());
    const outcome = opts.outcome ?? "COMPLETED";
    return this.store.t.workflows.insert({
      id: this.store.newId(),
      name: opts.name,
      state: "QUEUED",
      workspaceId: opts.workspaceId,
      resource: opts.resource ?? null,
      created: now,
      startsAt: now + Math.floor(duration / 5),
      endsAt: outcome === "STUCK" ? NEVER : now + duration,
      outcome,
      onComplete: opts.onComplete ?? null,
      onFail: opts.onFail ?? null,
      args: opts.args ?? {},
    });
  }

  /** Applies every transition that is due, oldest first. */
  advance(): void {
    const now = this.clock.now();
    const active = this.store.t.workflows.filter((w) => w.state === "QUEUED" || w.state === "RUNNING");
    active.sort((a, b) => a.endsAt - b.endsAt || a.created - b.created);
    for (const wf of active) {
      if (wf.state === "QUEUED" && wf.startsAt <= now) this.store.t.workflows.update(wf.id, { state: "RUNNING" });
      if (wf.state === "RUNNING" && wf.endsAt <= now) this.finish(wf);
    }
  }

  private finish(wf: WorkflowRow): void {
    const outcome = wf.outcome === "STUCK" ? "COMPLETED" : wf.outcome;
    this.store.t.workflows.update(wf.id, { state: outcome });
    const effectName = outcome === "COMPLETED" ? wf.onComplete : wf.onFail;
    if (effectName) this.runEffect(effectName, wf);
    else if (outcome !== "COMPLETED") {
      markResourceFailed(this.store, wf);
    }
  }

  /** Workflows still running on a resource (table name and id). */
  activeFor(kind: string, id: string): WorkflowRow[] {
    return this.store.t.workflows.filter(
      (w) => (w.state === "QUEUED" || w.state === "RUNNING") && w.resource?.kind === kind && w.resource.id === id,
    );
  }

  /** Ends workflows as ABORTED without their effects (a delete that abandons a pending create). */
  abort(workflows: WorkflowRow[]): void {
    for (const wf of workflows) this.store.t.workflows.update(wf.id, { state: "ABORTED" });
  }

  view(wf: WorkflowRow): WorkflowView {
    return { id: wf.id, name: wf.name, state: wf.state };
  }
}

/** Default failure effect: the resource the workflow was working on ends in state FAILED. */
function markResourceFailed(store: Store, wf: WorkflowRow): void {
  if (!wf.resource) return;
  const row = store.table(wf.resource.kind).get(wf.resource.id) as { state?: string } | undefined;
  if (row && "state" in row) store.table(wf.resource.kind).update(wf.resource.id, { state: "FAILED" } as never);
}
