import * as svc from "pulumi-svc";

// One managed cluster per workspace; nodes join it with K3sNode.
const cluster = new svc.K3sCluster("cluster", {});

export const clusterStatus = cluster.status;
