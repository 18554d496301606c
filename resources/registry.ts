/**
 * Every resource kind and where its spec lives. The shim in each resource's state names only
 * its kind; the provider process loads the spec from here on first use.
 */
import type * as pulumi from "@pulumi/pulumi";
import { installProvider } from "../provider/install";
import type { ResourceSpec } from "../provider/spec";

/**
 * Each kind and the module (resources/<module>.ts) that declares it. The module exports its spec
 * as `<module>Spec` (vpc.ts: `vpcSpec`), so this one table serves both the provider process
 * (load on first use) and the generated documentation (which file to read).
 */
const MODULES: Record<string, string> = {
  Vpc: "vpc",
  Disk: "disk",
  FirewallRule: "firewallRule",
  Instance: "instance",
  // k3s (resources/k3s*.ts)
  K3sCluster: "k3sCluster",
  K3sNode: "k3sNode",
  K3sService: "k3sService",
  K3sSecret: "k3sSecret",
  // access and billing (workspace, invites, tokens, SSH keys, registry credentials, coupons)
  Workspace: "workspace",
  WorkspaceInvite: "workspaceInvite",
  ApiToken: "apiToken",
  SshKey: "sshKey",
  RegistryCredential: "registryCredential",
  Coupon: "coupon",
  // apps, images and recipes
  App: "app",
  AppTemplate: "appTemplate",
  Image: "image",
  Snapshot: "snapshot",
  Recipe: "recipe",
  RecipeInstallation: "recipeInstallation",
  // networking (VPC attachments, floating IPs, load balancers, BGP)
  VpcAttachment: "vpcAttachment",
  FloatingIp: "floatingIp",
  FloatingIpAttachment: "floatingIpAttachment",
  NetLoadBalancer: "netLoadBalancer",
  NetLoadBalancerMember: "netLoadBalancerMember",
  BgpConfig: "bgpConfig",
  BgpPrefix: "bgpPrefix",
};

/** Every resource kind, in registry order. */
export function kinds(): string[] {
  return Object.keys(MODULES);
}

/** The file a kind's spec lives in (for generated documentation). */
export function sourceFileOf(kind: string): string {
  return `resources/${MODULES[kind]}.ts`;
}

export function specFor(kind: string): ResourceSpec {
  const module = MODULES[kind];
  if (!module) throw new Error(`pulumi-svc has no resource kind "${kind}" (state written by another version of pulumi-svc?)`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, in the provider process
  const spec = (require(`./${module}`) as Record<string, ResourceSpec | undefined>)[`${module}Spec`];
  if (spec?.kind !== kind) throw new Error(`internal: resources/${module}.ts exports no ${module}Spec of kind ${kind}`);
  return spec;
}

export function install(target: object, kind: string, req: pulumi.dynamic.ConfigureRequest): void {
  installProvider(target, specFor(kind), req);
}
