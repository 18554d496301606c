import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// One instance's billed minutes and cost in November 2026.
const usage = svc.getResourceUsageOutput({
  resourceId: config.require("instanceId"),
  from: "2026-11-01T00:00:00Z",
  to: "2026-12-01T00:00:00Z",
});

export const minutes = usage.minutes;
export const cost = usage.cost;
