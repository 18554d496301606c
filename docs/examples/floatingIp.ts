import * as svc from "pulumi-svc";

const ip = new svc.FloatingIp("public", { family: "IPv4", ddos: true });

export const address = ip.address;
