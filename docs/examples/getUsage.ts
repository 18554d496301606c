import * as svc from "pulumi-svc";

// The token user's usage in November 2026, across the workspaces the wallet pays for.
const usage = svc.getUsageOutput({ from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z" });

export const totalCost = usage.totalCost;
