/**
 * The stack's current state, for the change a preview or up makes to its cost. The engine shows
 * a policy only the new state (pulumi 3.163's analyzer protocol carries no old state), so the pack
 * asks the CLI for the last recorded deployment: `pulumi stack export`, with the backend, project,
 * stack and organization the CLI gives every policy pack in its environment (PULUMI_BACKEND_URL
 * or the login in PULUMI_HOME; PULUMI_ORGANIZATION, PULUMI_PROJECT, PULUMI_STACK).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface RecordedResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The fully-qualified stack the CLI runs this pack for, or undefined outside a deployment. */
export function stackRef(env: NodeJS.ProcessEnv): string | undefined {
  const { PULUMI_ORGANIZATION: org, PULUMI_PROJECT: project, PULUMI_STACK: stack } = env;
  if (!project || !stack) return undefined;
  return `${org || "organization"}/${project}/${stack}`;
}

/** The recorded resources (a new stack has none); rejects with the CLI's message when it cannot tell. */
export async function recordedResources(env: NodeJS.ProcessEnv = process.env): Promise<RecordedResource[]> {
  const ref = stackRef(env);
  if (!ref) throw new Error("no stack in PULUMI_PROJECT / PULUMI_STACK");
  const { stdout } = await run("pulumi", ["stack", "export", "--stack", ref, "--non-interactive"], {
    env,
    maxBuffer: 256 * 1024 * 1024,
    timeout: 60_000,
  });
  const exported = JSON.parse(stdout) as { deployment?: { resources?: RecordedResource[] } };
  return exported.deployment?.resources ?? [];
}
