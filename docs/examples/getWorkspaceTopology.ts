import * as svc from "pulumi-svc";

const topology = svc.getWorkspaceTopologyOutput({});

export const instanceCount = topology.instances.apply((list) => list.length);
