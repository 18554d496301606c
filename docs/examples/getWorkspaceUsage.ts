import * as svc from "pulumi-svc";

const usage = svc.getWorkspaceUsageOutput({ from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z" });

export const totalCost = usage.totalCost;
