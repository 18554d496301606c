/**
 * pulumi-svc: Pulumi resources for the svc infrastructure-hosting API.
 */
export { Vpc, type VpcArgs } from "./resources/vpc";
