import * as svc from "pulumi-svc";

const web = new svc.Instance("web", { name: "web", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });

// 20 GiB of local storage, attached to the instance (a change of instanceId moves it).
const data = new svc.Disk("data", { name: "web-data", size: 20 * 1024 ** 3, backend: "LOCAL", region: "NA_01", instanceId: web.id });

export const dataDiskId = data.id;
