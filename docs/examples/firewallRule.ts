import * as svc from "pulumi-svc";

const web = new svc.Instance("web", {
  name: "web",
  planId: svc.getPlanOutput({ name: "lightning-2" }).id,
  region: "NA_01",
  firewallEnabled: true,
});

// Once an instance has a rule, traffic no ACCEPT rule matches is dropped.
new svc.FirewallRule("web-ssh", {
  instanceId: web.id,
  type: "IPv4",
  protocol: "TCP",
  action: "ACCEPT",
  portStart: 22,
  remote: "203.0.113.0/24",
  priority: 10,
  description: "ssh from admins",
});
