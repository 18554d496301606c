import * as svc from "pulumi-svc";

// The platform's LIGHTNING nodes in NA_01 (scope "platform" needs an operator token).
const nodes = svc.getNodesOutput({ scope: "platform", group: "LIGHTNING", region: "NA_01" });

export const nodeNames = nodes.apply((list) => list.map((n) => n.name));
