import * as svc from "pulumi-svc";

const network = new svc.Vpc("app-net", { name: "app-net", description: "web tier", range: "10.42.0.0/16" });

export const vlan = network.vlan;
