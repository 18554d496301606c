import * as svc from "pulumi-svc";

const bgp = new svc.BgpConfig("bgp", { asn: 4200000001 });

// configId orders the prefix after the configuration and replaces it with the configuration.
new svc.BgpPrefix("announce", { prefix: "198.51.100.0/24", community: "DEFAULT", configId: bgp.id });
