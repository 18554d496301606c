import * as svc from "pulumi-svc";

// What 2 vCPUs and 4 GiB of memory cost in NA_01.
const estimate = svc.getBillingEstimateOutput({
  region: "NA_01",
  parts: [
    { type: "CPU", cpu: 2 },
    { type: "MEMORY", memoryBytes: 4 * 1024 ** 3 },
  ],
});

export const monthlyMicroUsd = estimate.monthlyPrice;
