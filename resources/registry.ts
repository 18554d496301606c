/**
 * Every resource kind and where its spec lives. The shim in each resource's state names only
 * its kind; the provider process loads the spec from here on first use.
 */
import type * as pulumi from "@pulumi/pulumi";
import { installProvider } from "../provider/install";
import type { ResourceSpec } from "../provider/spec";

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, in the provider process */
const SPECS: Record<string, () => ResourceSpec> = {
  Vpc: () => require("./vpc").vpcSpec,
  Disk: () => require("./disk").diskSpec,
  FirewallRule: () => require("./firewallRule").firewallRuleSpec,
  Instance: () => require("./instance").instanceSpec,
  // k3s (resources/k3s*.ts)
  K3sCluster: () => require("./k3sCluster").k3sClusterSpec,
  K3sNode: () => require("./k3sNode").k3sNodeSpec,
  K3sService: () => require("./k3sService").k3sServiceSpec,
  K3sSecret: () => require("./k3sSecret").k3sSecretSpec,
  // access and billing (workspace, invites, tokens, SSH keys, registry credentials, coupons)
  Workspace: () => require("./workspace").workspaceSpec,
  WorkspaceInvite: () => require("./workspaceInvite").workspaceInviteSpec,
  ApiToken: () => require("./apiToken").apiTokenSpec,
  SshKey: () => require("./sshKey").sshKeySpec,
  RegistryCredential: () => require("./registryCredential").registryCredentialSpec,
  Coupon: () => require("./coupon").couponSpec,
  // apps, images and recipes
  App: () => require("./app").appSpec,
  AppTemplate: () => require("./appTemplate").appTemplateSpec,
  Image: () => require("./image").imageSpec,
  Snapshot: () => require("./snapshot").snapshotSpec,
  Recipe: () => require("./recipe").recipeSpec,
  RecipeInstallation: () => require("./recipeInstallation").recipeInstallationSpec,
  // networking (VPC attachments, floating IPs, load balancers, BGP)
  VpcAttachment: () => require("./vpcAttachment").vpcAttachmentSpec,
  FloatingIp: () => require("./floatingIp").floatingIpSpec,
  FloatingIpAttachment: () => require("./floatingIpAttachment").floatingIpAttachmentSpec,
  NetLoadBalancer: () => require("./netLoadBalancer").netLoadBalancerSpec,
  NetLoadBalancerMember: () => require("./netLoadBalancerMember").netLoadBalancerMemberSpec,
  BgpConfig: () => require("./bgpConfig").bgpConfigSpec,
  BgpPrefix: () => require("./bgpPrefix").bgpPrefixSpec,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Every resource kind, in registry order. */
export function kinds(): string[] {
  return Object.keys(SPECS);
}

/** The file a kind's spec lives in (for generated documentation). */
export function sourceFileOf(kind: string): string {
  const match = /require\("\.\/([^"]+)"\)/.exec(SPECS[kind].toString());
  return match ? `resources/${match[1]}.ts` : "";
}

export function specFor(kind: string): ResourceSpec {
  const load = SPECS[kind];
  if (!load) throw new Error(`pulumi-svc has no resource kind "${kind}" (state written by another version of pulumi-svc?)`);
  return load();
}

export function install(target: object, kind: string, req: pulumi.dynamic.ConfigureRequest): void {
  installProvider(target, specFor(kind), req);
}
