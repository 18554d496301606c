/**
 * The stack's current state, for the change a preview or up makes to its cost. The engine shows
 * a policy only the new state (pulumi 3.163's analyzer protocol carries no old state), so the pack
 * asks the CLI for the last recorded deployment: `pulumi stack export` of the stack the engine
 * named (deployment.ts), with the backend the CLI gives every policy pack in its environment
 * (PULUMI_BACKEND_URL or the login in PULUMI_HOME).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { StackRef } from "./deployment";

const run = promisify(execFile);

export interface RecordedResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The fully-qualified name of a stack (a DIY backend's organization is "organization"). */
export const qualified = (ref: StackRef) => `${ref.organization || "organization"}/${ref.project}/${ref.stack}`;

/** The recorded resources (a new stack has none); rejects with the CLI's message when it cannot tell. */
export async function recordedResources(ref: StackRef, env: NodeJS.ProcessEnv = process.env): Promise<RecordedResource[]> {
  const { stdout } = await run("pulumi", ["stack", "export", "--stack", qualified(ref), "--non-interactive"], {
    env,
    maxBuffer: 256 * 1024 * 1024,
    timeout: 60_000,
  });
  const exported = JSON.parse(stdout) as { deployment?: { resources?: RecordedResource[] } };
  return exported.deployment?.resources ?? [];
}
