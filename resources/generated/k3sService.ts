/** Generated from resources/k3sService.ts by `npm run generate` (scripts/classes.ts): do not edit. */
import type * as pulumi from "@pulumi/pulumi";
import { CustomResource } from "@pulumi/pulumi/resource";
import { type ClassShape, type CommonArgs, type OutputProperties, superArgs } from "../../provider/dynamic/classSupport";
import type { Integer } from "../../provider/fields/integer";

/** A port the service publishes (as a program passes it). */
export interface K3sPortArgs {
  /** Port on the host, 1 to 65535; unique per protocol. */
  hostPort: Integer;
  /** Port inside the container, 1 to 65535. */
  containerPort: Integer;
  /** TCP (default) or UDP. */
  protocol?: "TCP" | "UDP";
  /** Eligible for a custom subdomain (default false). */
  http?: boolean;
}

/** A port the service publishes (as recorded). */
export interface K3sServicePort {
  /** Port on the host, 1 to 65535; unique per protocol. */
  hostPort: Integer;
  /** Port inside the container, 1 to 65535. */
  containerPort: Integer;
  /** TCP (default) or UDP. */
  protocol: "TCP" | "UDP";
  /** Eligible for a custom subdomain (default false). */
  http: boolean;
}

/** A host path mounted into the service's containers (as a program passes it). */
export interface K3sVolumeArgs {
  /** Absolute path on the host. */
  hostPath: string;
  /** Absolute path inside the container; unique among the volumes. */
  containerPath: string;
}

/** A host path mounted into the service's containers (as recorded). */
export interface K3sServiceVolume {
  /** Absolute path on the host. */
  hostPath: string;
  /** Absolute path inside the container; unique among the volumes. */
  containerPath: string;
}

/** A pod of the service (as recorded). */
export interface K3sPod {
  /** Pod name. */
  name: string;
  /** Pod phase (Pending, Running...). */
  phase: string;
  /** Whether the pod is ready. */
  ready: boolean;
  /** Container restarts. */
  restartCount: Integer;
  /** Node the pod runs on, or null. */
  nodeName: string | null;
}

/** The arguments of a `K3sService`. */
export interface K3sServiceArgs extends CommonArgs {
  /** Unique within the workspace. A replacement under a new name creates the new service first. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name?: pulumi.Input<string>;
  /** PINNED: one pod on each target instance; SPREAD: `replicas` pods across the target instances' nodes. A replacement keeps the name, so it deletes the old service first. Changing it replaces the resource. */
  mode: pulumi.Input<"PINNED" | "SPREAD">;
  /** Container image with a tag, for example nginx:1.27 (a change is a rolling redeploy). Changing it updates the resource in place. */
  image: pulumi.Input<string>;
  /** Instances the scheduler may use (at least one); each must be a READY node. Changing it updates the resource in place. */
  targetInstanceIds: pulumi.Input<pulumi.Input<string>[]>;
  /** Replica count (meaningful for SPREAD); default 1. Changing it updates the resource in place. */
  replicas?: pulumi.Input<Integer>;
  /** Published ports; default none. Changing it updates the resource in place. */
  ports?: pulumi.Input<pulumi.Input<K3sPortArgs>[]>;
  /** Host paths mounted into the container; default none. Changing it updates the resource in place. */
  volumes?: pulumi.Input<pulumi.Input<K3sVolumeArgs>[]>;
  /** Environment variables (flat name to value); default none. Write-only: the API never returns it, so it is kept from state and a change made outside Pulumi is not detected. Changing it updates the resource in place. */
  environment?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Names of K3sSecrets whose key-value pairs are injected as environment variables; default none. Changing it updates the resource in place. */
  secretRefs?: pulumi.Input<pulumi.Input<string>[]>;
  /** ROLLING (default: one pod at a time) or START_FIRST (new pods up before old ones go). Changing it updates the resource in place. */
  updateStrategy?: pulumi.Input<"ROLLING" | "START_FIRST">;
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId?: pulumi.Input<string>;
}

/** What a `K3sService` records: its outputs, each also a typed property of the class. */
export interface K3sServiceOutputs extends Record<string, unknown> {
  /** Owning workspace; defaults to svc:workspaceId / SVC_WORKSPACE_ID. Changing it replaces the resource. */
  workspaceId: string;
  /** Unique within the workspace. A replacement under a new name creates the new service first. Left out, it is the logical name and a dash and seven random hex digits, cut to fit, kept for the resource's life; `pulumi:autonaming` can change that. Changing it replaces the resource. */
  name: string;
  /** PINNED: one pod on each target instance; SPREAD: `replicas` pods across the target instances' nodes. A replacement keeps the name, so it deletes the old service first. Changing it replaces the resource. */
  mode: "PINNED" | "SPREAD";
  /** Container image with a tag, for example nginx:1.27 (a change is a rolling redeploy). Changing it updates the resource in place. */
  image: string;
  /** Instances the scheduler may use (at least one); each must be a READY node. Changing it updates the resource in place. */
  targetInstanceIds: string[];
  /** Replica count (meaningful for SPREAD); default 1. Changing it updates the resource in place. */
  replicas: Integer;
  /** Published ports; default none. Changing it updates the resource in place. */
  ports: K3sServicePort[];
  /** Host paths mounted into the container; default none. Changing it updates the resource in place. */
  volumes: K3sServiceVolume[];
  /** Environment variables (flat name to value); default none. Write-only: the API never returns it, so it is kept from state and a change made outside Pulumi is not detected. Changing it updates the resource in place. */
  environment?: Record<string, string>;
  /** Names of K3sSecrets whose key-value pairs are injected as environment variables; default none. Changing it updates the resource in place. */
  secretRefs: string[];
  /** ROLLING (default: one pod at a time) or START_FIRST (new pods up before old ones go). Changing it updates the resource in place. */
  updateStrategy: "ROLLING" | "START_FIRST";
  /** DEPLOYING, RUNNING, UPDATING, DELETING, FAILED or STOPPED. */
  status: string;
  /** Requested replicas (null while the live status is unavailable). */
  desiredReplicas: Integer | null;
  /** Ready replicas (null while the live status is unavailable). */
  availableReplicas: Integer | null;
  /** Replicas on the current revision (null while the live status is unavailable). */
  updatedReplicas: Integer | null;
  /** A rollout is in progress. */
  updating: boolean;
  /** Per pod: name, phase, ready, restartCount, nodeName. */
  pods: K3sPod[];
}

const SHAPE: ClassShape = {
  kind: "K3sService",
  autonamed: true,
  outputs: [
    "workspaceId",
    "name",
    "mode",
    "image",
    "targetInstanceIds",
    "replicas",
    "ports",
    "volumes",
    "environment",
    "secretRefs",
    "updateStrategy",
    "status",
    "desiredReplicas",
    "availableReplicas",
    "updatedReplicas",
    "updating",
    "pods",
  ],
  secretOutputs: [],
  secretInputs: [],
};

/** A containerised service on the workspace's Kubernetes cluster. Declare it with `dependsOn` on the nodes of its target instances (and reference secrets through their `name` output). */
export class K3sService extends CustomResource {
  constructor(name: string, args: K3sServiceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...superArgs(SHAPE, name, args, opts));
  }
}

/** Typed properties: one `Output` per field of `K3sServiceOutputs`. */
export interface K3sService extends OutputProperties<K3sServiceOutputs> {}
