/** Generated from resources/instance.ts by `npm run docs` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { type ClassShape, type OutputProperties, superArgs } from "../../provider/resource";
import type { InstanceArgs, InstanceOutputs } from "../instance";

const SHAPE: ClassShape = {
  kind: "Instance",
  outputs: [
    "workspaceId",
    "name",
    "type",
    "planId",
    "group",
    "cpu",
    "memoryBytes",
    "bandwidth",
    "storage",
    "region",
    "nodeId",
    "imageId",
    "vpcIds",
    "disableCloudInit",
    "boot",
    "uefi",
    "secureBoot",
    "attachVirtioCdb",
    "syncHostname",
    "firewallEnabled",
    "osName",
    "powerState",
    "state",
    "online",
    "locked",
    "pendingUpgrades",
    "hostname",
    "ipv4Address",
    "ipv6Address",
    "ipAddresses",
    "privateIps",
    "bootDiskId",
    "terminationScheduledAt",
    "createdAt",
  ],
  secretOutputs: [],
  secretInputs: [],
};

/** A virtual server. */
export class Instance extends DynamicResource {
  constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `InstanceOutputs`. */
export interface Instance extends OutputProperties<InstanceOutputs> {}
