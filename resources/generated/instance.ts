/** Generated from resources/instance.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer, WideInteger } from "../../provider/fields/integer";

/** One disk of a CUSTOM instance (as recorded). */
export interface InstanceStorageEntry {
  /** Size in bytes. */
  sizeBytes: WideInteger;
  /** Whether this is the boot disk (exactly one entry is); default false. */
  boot: boolean;
  /** LOCAL (default) or CEPH. */
  backing: "LOCAL" | "CEPH";
}

/** The arguments of a `Instance`. */
export interface InstanceArgs extends CommonArgs {
  /** Instance name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name?: pulumi.Input<string>;
  /** PLAN (fixed specs and price) or CUSTOM; defaults to PLAN when planId is set. Changing it replaces the resource. */
  type?: pulumi.Input<"PLAN" | "CUSTOM">;
  /** PLAN: the plan. Changing it updates the resource in place (upgrade). */
  planId?: pulumi.Input<string>;
  /** CUSTOM: LIGHTNING, RYZEN or DEDICATED. Changing it replaces the resource. */
  group?: pulumi.Input<"LIGHTNING" | "RYZEN" | "DEDICATED">;
  /** CUSTOM: vCPU cores. Changing it updates the resource in place (upgrade). */
  cpu?: pulumi.Input<Integer>;
  /** CUSTOM: memory in bytes. Changing it updates the resource in place (upgrade). */
  memoryBytes?: pulumi.Input<WideInteger>;
  /** CUSTOM: bandwidth caps in bytes per second. Changing it updates the resource in place (upgrade). */
  bandwidth?: pulumi.Input<{ uploadBytesSec: WideInteger; downloadBytesSec: WideInteger }>;
  /** CUSTOM: disks, exactly one with boot true. Growing only the boot disk upgrades in place; any other change replaces the instance. Depending on the change, it is made in place or replaces the resource. */
  storage?: pulumi.Input<pulumi.Input<{ sizeBytes: WideInteger; boot?: boolean; backing?: "LOCAL" | "CEPH" }>[]>;
  /** Region, for example NA_01 (or set nodeId). Changing it replaces the resource. */
  region?: pulumi.Input<string>;
  /** A specific node (platform or your private cloud). Changing it replaces the resource. */
  nodeId?: pulumi.Input<string>;
  /** Template or backup restored onto the boot disk, or an ISO attached. Changing it replaces the resource. */
  imageId?: pulumi.Input<string>;
  /** Floating IPs allocated with the instance; default one IPv4 and one IPv6; ddos (DDoS filtering) is for IPv4 only. Changing it replaces the resource. */
  ips?: pulumi.Input<pulumi.Input<{ family: "IPv4" | "IPv6"; ddos?: boolean }>[]>;
  /** VPCs the instance is attached to (a NIC and a private address each). As an output, the declared ones only: a VpcAttachment's VPC is on the attachment. Changing it updates the resource in place (vpcs). */
  vpcIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** cloud-init user-data run on first boot. Changing it replaces the resource. */
  cloudInit?: pulumi.Input<string>;
  /** Turn off vendor cloud-init features. Changing it replaces the resource. */
  disableCloudInit?: pulumi.Input<boolean>;
  /** Boot device DISK or ISO. Changing it updates the resource in place. */
  boot?: pulumi.Input<"DISK" | "ISO">;
  /** Boot with UEFI firmware. Changing it updates the resource in place. */
  uefi?: pulumi.Input<boolean>;
  /** UEFI Secure Boot. Changing it updates the resource in place. */
  secureBoot?: pulumi.Input<boolean>;
  /** Attach the VirtIO CD device. Changing it updates the resource in place. */
  attachVirtioCdb?: pulumi.Input<boolean>;
  /** Keep the guest's hostname in step with the instance name. Changing it updates the resource in place. */
  syncHostname?: pulumi.Input<boolean>;
  /** Enforce this instance's firewall rules. Changing it updates the resource in place. */
  firewallEnabled?: pulumi.Input<boolean>;
  /** OS name shown for the instance. Changing it updates the resource in place. */
  osName?: pulumi.Input<string>;
  /** Desired power state; default running. Changing it updates the resource in place (power). */
  powerState?: pulumi.Input<"running" | "stopped">;
  /** After an upgrade of an online instance, restart it now to apply the new specs (default: at its next restart). Never causes a diff. */
  applyUpgrades?: pulumi.Input<boolean>;
  /** How `pulumi destroy` deletes it: immediate (default) or scheduled (powered off now, deleted by the API in 3 days; refused while locked). Changing it only records the new value (no API call): deletion uses it. */
  deletion?: pulumi.Input<"immediate" | "scheduled">;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `Instance` records: its outputs, each also a typed property of the class. */
export interface InstanceOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Instance name (required). Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it updates the resource in place. */
  name: string;
  /** PLAN (fixed specs and price) or CUSTOM; defaults to PLAN when planId is set. Changing it replaces the resource. */
  type: "PLAN" | "CUSTOM";
  /** PLAN: the plan. Changing it updates the resource in place (upgrade). */
  planId?: string;
  /** CUSTOM: LIGHTNING, RYZEN or DEDICATED. Changing it replaces the resource. */
  group: "LIGHTNING" | "RYZEN" | "DEDICATED";
  /** CUSTOM: vCPU cores. Changing it updates the resource in place (upgrade). */
  cpu: Integer;
  /** CUSTOM: memory in bytes. Changing it updates the resource in place (upgrade). */
  memoryBytes: WideInteger;
  /** CUSTOM: bandwidth caps in bytes per second. Changing it updates the resource in place (upgrade). */
  bandwidth: { uploadBytesSec: WideInteger; downloadBytesSec: WideInteger };
  /** CUSTOM: disks, exactly one with boot true. Growing only the boot disk upgrades in place; any other change replaces the instance. Depending on the change, it is made in place or replaces the resource. */
  storage?: InstanceStorageEntry[];
  /** Region, for example NA_01 (or set nodeId). Changing it replaces the resource. */
  region: string;
  /** A specific node (platform or your private cloud). Changing it replaces the resource. */
  nodeId: string;
  /** Template or backup restored onto the boot disk, or an ISO attached. Changing it replaces the resource. */
  imageId?: string;
  /** VPCs the instance is attached to (a NIC and a private address each). As an output, the declared ones only: a VpcAttachment's VPC is on the attachment. Changing it updates the resource in place (vpcs). */
  vpcIds: string[];
  /** Turn off vendor cloud-init features. Changing it replaces the resource. */
  disableCloudInit: boolean;
  /** Boot device DISK or ISO. Changing it updates the resource in place. */
  boot: "DISK" | "ISO";
  /** Boot with UEFI firmware. Changing it updates the resource in place. */
  uefi: boolean;
  /** UEFI Secure Boot. Changing it updates the resource in place. */
  secureBoot: boolean;
  /** Attach the VirtIO CD device. Changing it updates the resource in place. */
  attachVirtioCdb: boolean;
  /** Keep the guest's hostname in step with the instance name. Changing it updates the resource in place. */
  syncHostname: boolean;
  /** Enforce this instance's firewall rules. Changing it updates the resource in place. */
  firewallEnabled: boolean;
  /** OS name shown for the instance. Changing it updates the resource in place. */
  osName?: string;
  /** Desired power state; default running. Changing it updates the resource in place (power). */
  powerState: "running" | "stopped";
  /** Resource state: PENDING, AVAILABLE, SUSPENDED, FAILED... */
  state: string;
  /** Whether the instance is powered on. */
  online: boolean;
  /** Whether the instance is locked (a scheduled termination refuses it). */
  locked: boolean;
  /** Upgrades staged on an online instance, applied at its next restart. */
  pendingUpgrades: boolean;
  /** Hostname the API assigned. */
  hostname: string;
  /** First IPv4 address of ipAddresses, or null. */
  ipv4Address: string | null;
  /** First IPv6 address of ipAddresses, or null. */
  ipv6Address: string | null;
  /** The instance's own public addresses (id, address, family, ddos): those it was created with. A FloatingIpAttachment's address is on the attachment. */
  ipAddresses: { id: string; address: string; family: string; ddos: boolean }[];
  /** Private address in each VPC of vpcIds, by VPC id (a VpcAttachment's is on the attachment). */
  privateIps: Record<string, string>;
  /** The boot disk's id. */
  bootDiskId: string | null;
  /** When a scheduled termination deletes the instance, else null. */
  terminationScheduledAt: string | null;
  /** Creation time (ISO 8601), as the API reports it. */
  createdAt: string;
}

const SHAPE: ClassShape = {
  kind: "Instance",
  autonamed: true,
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
export class Instance extends CustomResource {
  constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `InstanceOutputs`. */
export interface Instance extends OutputProperties<InstanceOutputs> {}
