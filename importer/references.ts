/**
 * Where one object refers to another, by input: the kind it names and by what (its id, or its
 * name where the API ties objects by name: a service's secrets). svc-import turns each such value
 * that names an object it imports into a reference (`instanceId: web1.id`), so the program says
 * the tie and the engine orders by it; a value naming an object outside the import stays literal.
 * tests/unit/importer/references.test.ts holds the table to the field sets: every input named
 * `...Id` or `...Ids` is here, or in NOT_REFERENCES with the reason.
 */

export interface RefersTo {
  kind: string;
  /** The target's output the value equals: its id, or its name. */
  by: "id" | "name";
}

const id = (kind: string): RefersTo => ({ kind, by: "id" });

export const REFERENCES: Record<string, Record<string, RefersTo>> = {
  Disk: { instanceId: id("Instance") },
  FirewallRule: { instanceId: id("Instance") },
  Instance: { vpcIds: id("Vpc"), imageId: id("Image") },
  K3sNode: { instanceId: id("Instance") },
  K3sService: { targetInstanceIds: id("Instance"), secretRefs: { kind: "K3sSecret", by: "name" } },
  ApiToken: { subjectId: id("Instance") },
  App: { instanceId: id("Instance") },
  Snapshot: { instanceId: id("Instance"), diskId: id("Disk") },
  RecipeInstallation: { instanceId: id("Instance"), recipeId: id("Recipe") },
  VpcAttachment: { instanceId: id("Instance"), vpcId: id("Vpc") },
  FloatingIpAttachment: { ipId: id("FloatingIp"), instanceId: id("Instance") },
  NetLoadBalancerMember: { loadBalancerId: id("NetLoadBalancer"), instanceId: id("Instance") },
  BgpConfig: { instanceId: id("Instance") },
  BgpPrefix: { configId: id("BgpConfig") },
};

/** Inputs named like ids that name nothing a workspace's import holds: the platform's catalogue, or the workspace. */
export const NOT_REFERENCES: Record<string, Record<string, string>> = {
  Instance: { planId: "a plan of the platform's catalogue", nodeId: "a node (the declaration names the region instead)" },
  App: { templateId: "a template of the platform's catalogue" },
  NetLoadBalancer: { ownerWorkspaceId: "the workspace, left to svc:workspaceId" },
};
