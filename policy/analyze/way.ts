/**
 * How a stack's current state is put through the policy packs, by the CLI's version: `pulumi
 * policy analyze` (the engine runs the packs over the state, as over a preview: resource policies
 * on each resource's inputs, stack policies on the outputs) where the CLI has it, else the rules
 * run here over `pulumi stack export` (fromExport.ts). pulumi added `policy analyze` in 3.229.0
 * (CHANGELOG: "Add a new `policy analyze` command to run a policy pack against existing state");
 * 3.163, the floor, has none.
 */
const POLICY_ANALYZE_SINCE = "3.229.0";

export type Way = "policy analyze" | "stack export";

/** -1, 0, 1 as a is older, the same, newer than b (x.y.z, a leading v and any suffix ignored). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, "").split(/[-+]/)[0].split(".").map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

export const wayFor = (cliVersion: string, forceExport = false): Way =>
  !forceExport && compareVersions(cliVersion, POLICY_ANALYZE_SINCE) >= 0 ? "policy analyze" : "stack export";
