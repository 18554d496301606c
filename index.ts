/**
 * pulumi-svc: Pulumi resources for the svc infrastructure-hosting API.
 *
 * Generated from the kinds in resources/kinds.ts by `npm run generate` (scripts/exports.ts): do not edit.
 */
export { Vpc } from "./resources/generated/vpc";
export type { VpcArgs } from "./resources/vpc";
export { Disk } from "./resources/generated/disk";
export type { DiskArgs } from "./resources/disk";
export { FirewallRule } from "./resources/generated/firewallRule";
export type { FirewallRuleArgs } from "./resources/firewallRule";
export { Instance } from "./resources/generated/instance";
export type { InstanceArgs } from "./resources/instance";
export { K3sCluster } from "./resources/generated/k3sCluster";
export type { K3sClusterArgs } from "./resources/k3sCluster";
export { K3sNode } from "./resources/generated/k3sNode";
export type { K3sNodeArgs } from "./resources/k3sNode";
export { K3sService } from "./resources/generated/k3sService";
export type { K3sServiceArgs, K3sPortArgs, K3sVolumeArgs } from "./resources/k3sService";
export { K3sSecret } from "./resources/generated/k3sSecret";
export type { K3sSecretArgs } from "./resources/k3sSecret";
export { Workspace } from "./resources/generated/workspace";
export type { WorkspaceArgs } from "./resources/workspace";
export { WorkspaceInvite } from "./resources/generated/workspaceInvite";
export type { WorkspaceInviteArgs } from "./resources/workspaceInvite";
export { ApiToken } from "./resources/generated/apiToken";
export type { ApiTokenArgs } from "./resources/apiToken";
export { SshKey } from "./resources/generated/sshKey";
export type { SshKeyArgs } from "./resources/sshKey";
export { RegistryCredential } from "./resources/generated/registryCredential";
export type { RegistryCredentialArgs } from "./resources/registryCredential";
export { Coupon } from "./resources/generated/coupon";
export type { CouponArgs } from "./resources/coupon";
export { App } from "./resources/generated/app";
export type { AppArgs, AppPortArgs } from "./resources/app";
export { AppTemplate } from "./resources/generated/appTemplate";
export type { AppTemplateArgs, TemplateEnvArgs, TemplatePortArgs, AppMountArgs } from "./resources/appTemplate";
export { Image } from "./resources/generated/image";
export type { ImageArgs, ImageSourceArgs } from "./resources/image";
export { Snapshot } from "./resources/generated/snapshot";
export type { SnapshotArgs } from "./resources/snapshot";
export { Recipe } from "./resources/generated/recipe";
export type { RecipeArgs, RecipeCommandArgs, RecipeFieldArgs } from "./resources/recipe";
export { RecipeInstallation } from "./resources/generated/recipeInstallation";
export type { RecipeInstallationArgs } from "./resources/recipeInstallation";
export { VpcAttachment } from "./resources/generated/vpcAttachment";
export type { VpcAttachmentArgs } from "./resources/vpcAttachment";
export { FloatingIp } from "./resources/generated/floatingIp";
export type { FloatingIpArgs } from "./resources/floatingIp";
export { FloatingIpAttachment } from "./resources/generated/floatingIpAttachment";
export type { FloatingIpAttachmentArgs } from "./resources/floatingIpAttachment";
export { NetLoadBalancer } from "./resources/generated/netLoadBalancer";
export type { NetLoadBalancerArgs } from "./resources/netLoadBalancer";
export { NetLoadBalancerMember } from "./resources/generated/netLoadBalancerMember";
export type { NetLoadBalancerMemberArgs } from "./resources/netLoadBalancerMember";
export { BgpConfig } from "./resources/generated/bgpConfig";
export type { BgpConfigArgs } from "./resources/bgpConfig";
export { BgpPrefix } from "./resources/generated/bgpPrefix";
export type { BgpPrefixArgs } from "./resources/bgpPrefix";
// The explicit provider ({ provider } on any resource or lookup).
export { Provider } from "./provider/dynamic/explicitProvider";
export type { ProviderArgs } from "./provider/dynamic/explicitProvider";
// Lookups (plain and Output forms).
export * from "./resources/lookups";
