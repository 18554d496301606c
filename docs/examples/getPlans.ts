import * as svc from "pulumi-svc";

// Plans of a group at or below 0.05 USD an hour (rates are micro-USD).
const plans = svc.getPlansOutput({ group: "LIGHTNING", maxHourlyRate: 50_000 });

export const planNames = plans.apply((list) => list.map((p) => p.name));
