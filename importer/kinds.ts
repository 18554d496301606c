/**
 * Which kinds svc-import takes from a workspace: every kind the package manages is here, each
 * either taken by default, taken when asked for (`--kind`), or never, with the reason a person
 * reads in `svc-import --help` and the guide. tests/unit/importer/kinds.test.ts holds the table to
 * resources/kinds.ts (every kind, and a list for each kind taken).
 */

export type Take = { take: "default" } | { take: "asked"; why: string } | { take: "never"; why: string };

const DEFAULT: Take = { take: "default" };

export const KIND_TAKE: Record<string, Take> = {
  Vpc: DEFAULT,
  Disk: DEFAULT,
  FirewallRule: DEFAULT,
  Instance: DEFAULT,
  K3sCluster: DEFAULT,
  K3sNode: DEFAULT,
  K3sService: DEFAULT,
  K3sSecret: DEFAULT,
  Workspace: {
    take: "never",
    why: "the workspace itself holds everything else and the API cannot delete it; the stack names it by svc:workspaceId",
  },
  WorkspaceInvite: { take: "asked", why: "access rather than infrastructure: pass --kind WorkspaceInvite to adopt the pending invites" },
  ApiToken: {
    take: "asked",
    why: "credentials, perhaps the one this stack runs with (a destroy would revoke it): pass --kind ApiToken to adopt the workspace's tokens",
  },
  SshKey: DEFAULT,
  RegistryCredential: DEFAULT,
  Coupon: { take: "never", why: "a coupon is the platform's (operators'), not a workspace's" },
  App: DEFAULT,
  AppTemplate: { take: "never", why: "app templates are the platform's catalogue, not a workspace's" },
  Image: DEFAULT,
  Snapshot: DEFAULT,
  Recipe: DEFAULT,
  RecipeInstallation: { take: "never", why: "the API keeps no object for an installation, only the workflow that ran it" },
  VpcAttachment: DEFAULT,
  FloatingIp: DEFAULT,
  FloatingIpAttachment: DEFAULT,
  NetLoadBalancer: DEFAULT,
  NetLoadBalancerMember: DEFAULT,
  BgpConfig: DEFAULT,
  BgpPrefix: DEFAULT,
};

/** The kinds taken when none is named, in the order of resources/kinds.ts. */
export const takenByDefault = (all: string[]): string[] => all.filter((k) => KIND_TAKE[k]?.take === "default");
