import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const router = new svc.Instance("router", { name: "router", planId: svc.getPlanOutput({ name: "lightning-2" }).id, region: "NA_01" });

// The workspace's one BGP configuration; the password is always stored as a secret.
const bgp = new svc.BgpConfig("bgp", { asn: 4200000001, password: config.requireSecret("bgpPassword"), instanceId: router.id });

export const bgpId = bgp.id;
