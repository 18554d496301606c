import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });

// A copy of the instance's boot disk.
const backup = new svc.Snapshot("web-backup", { instanceId: web.id });

export const snapshotId = backup.id;
