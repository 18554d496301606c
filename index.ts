/**
 * pulumi-svc: Pulumi resources for the svc infrastructure-hosting API.
 *
 * Generated from the kinds in resources/registry.ts by `npm run docs` (scripts/exports.ts): do not edit.
 */
export { Vpc, type VpcArgs } from "./resources/vpc";
export { Disk, type DiskArgs } from "./resources/disk";
export { FirewallRule, type FirewallRuleArgs } from "./resources/firewallRule";
export { Instance, type InstanceArgs } from "./resources/instance";
export { K3sCluster, type K3sClusterArgs } from "./resources/k3sCluster";
export { K3sNode, type K3sNodeArgs } from "./resources/k3sNode";
export { K3sService, type K3sServiceArgs, type K3sPortArgs, type K3sVolumeArgs } from "./resources/k3sService";
export { K3sSecret, type K3sSecretArgs } from "./resources/k3sSecret";
export { Workspace, type WorkspaceArgs } from "./resources/workspace";
export { WorkspaceInvite, type WorkspaceInviteArgs } from "./resources/workspaceInvite";
export { ApiToken, type ApiTokenArgs } from "./resources/apiToken";
export { SshKey, type SshKeyArgs } from "./resources/sshKey";
export { RegistryCredential, type RegistryCredentialArgs } from "./resources/registryCredential";
export { Coupon, type CouponArgs } from "./resources/coupon";
export { App, type AppArgs, type AppPortArgs } from "./resources/app";
export { AppTemplate, type AppTemplateArgs, type TemplateEnvArgs, type TemplatePortArgs, type AppMountArgs } from "./resources/appTemplate";
export { Image, type ImageArgs, type ImageSourceArgs } from "./resources/image";
export { Snapshot, type SnapshotArgs } from "./resources/snapshot";
export { Recipe, type RecipeArgs, type RecipeCommandArgs, type RecipeFieldArgs } from "./resources/recipe";
export { RecipeInstallation, type RecipeInstallationArgs } from "./resources/recipeInstallation";
export { VpcAttachment, type VpcAttachmentArgs } from "./resources/vpcAttachment";
export { FloatingIp, type FloatingIpArgs } from "./resources/floatingIp";
export { FloatingIpAttachment, type FloatingIpAttachmentArgs } from "./resources/floatingIpAttachment";
export { NetLoadBalancer, type NetLoadBalancerArgs } from "./resources/netLoadBalancer";
export { NetLoadBalancerMember, type NetLoadBalancerMemberArgs } from "./resources/netLoadBalancerMember";
export { BgpConfig, type BgpConfigArgs } from "./resources/bgpConfig";
export { BgpPrefix, type BgpPrefixArgs } from "./resources/bgpPrefix";
// Lookups (plain and Output forms).
export * from "./resources/lookups";
