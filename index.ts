/**
 * pulumi-svc: Pulumi resources for the svc infrastructure-hosting API.
 */
export { Vpc, type VpcArgs } from "./resources/vpc";
export { Disk, type DiskArgs } from "./resources/disk";
export { FirewallRule, type FirewallRuleArgs } from "./resources/firewallRule";
export { Instance, type InstanceArgs } from "./resources/instance";
export { K3sCluster, type K3sClusterArgs } from "./resources/k3sCluster";
export { K3sNode, type K3sNodeArgs } from "./resources/k3sNode";
export { K3sService, type K3sServiceArgs, type K3sPortArgs, type K3sVolumeArgs } from "./resources/k3sService";
export { K3sSecret, type K3sSecretArgs } from "./resources/k3sSecret";
// Lookups (plain and Output forms).
export * from "./resources/lookups";
// Access and billing resources.
// Apps, images and recipes.
// Networking resources.
