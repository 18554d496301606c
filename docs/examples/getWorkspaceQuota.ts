import * as svc from "pulumi-svc";

const quota = svc.getWorkspaceQuotaOutput({});

export const maxInstances = quota.maxInstances;
