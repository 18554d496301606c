/**
 * The named effects of workflows (core/workflows.ts): what a workflow's end does to the rows it
 * works on. Named, not closures, so a workflow in flight survives a restart with --state; each
 * domain module defines its own at load time.
 */
import type { WorkflowRow } from "../model";
import type { Services } from "./services";

export type WorkflowEffect = (services: Services, workflow: WorkflowRow) => void;

const effects = new Map<string, WorkflowEffect>();

/** Registers a named effect; domain modules call this at load time. */
export function defineWorkflowEffect(name: string, effect: WorkflowEffect): string {
  if (effects.has(name) && effects.get(name) !== effect) throw new Error(`workflow effect ${name} defined twice`);
  effects.set(name, effect);
  return name;
}

/** Runs the effect named, with the emulator's services. */
export function runEffect(services: Services, effectName: string, workflow: WorkflowRow): void {
  const effect = effects.get(effectName);
  if (!effect) throw new Error(`internal: unknown workflow effect ${effectName}`);
  effect(services, workflow);
}
