import * as svc from "pulumi-svc";

// Output form: takes Inputs, gives an Output (svc.getPlan returns a Promise).
const plan = svc.getPlanOutput({ name: "lightning-2" });

export const planId = plan.id;
export const hourlyRate = plan.rate;
