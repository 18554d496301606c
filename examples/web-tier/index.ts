/**
 * Web tier: web instances from a looked-up plan and image, on a private network (VPC
 * attachments), behind firewall rules, each with a public IPv4 the stack owns (a FloatingIp
 * attached with a FloatingIpAttachment, so the address outlives instance replacements), and a
 * network load balancer spreading a virtual IP (another FloatingIp's address) over all of them.
 *
 * Creating and deleting a network load balancer is Administrator-only (spec part 3): run this
 * stack with an operator (staff) token. That token reaches every workspace, so the same stack
 * creates the workspace's instances, network and addresses too.
 *
 *   pulumi config set svc:baseUrl https://api.example.com
 *   pulumi config set --secret svc:token <operator token>
 *   pulumi config set svc:workspaceId <workspace id>
 *   pulumi up
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const region = config.get("region") ?? "NA_01";
const adminCidr = config.get("adminCidr") ?? "203.0.113.0/24";
const webCount = config.getNumber("webCount") ?? 2;

// Pick a plan and an image by name.
const plan = svc.getPlanOutput({ name: config.get("plan") ?? "lightning-1" });
const image = svc.getImageOutput({ name: config.get("image") ?? "Ubuntu 24.04 LTS" });

const network = new svc.Vpc("web-net", { name: "web-net", description: "web tier private network", range: "10.60.0.0/16" });

// The balanced address: a floating IP of the stack that no instance holds.
const vip = new svc.FloatingIp("vip", { family: "IPv4" });
const balancer = new svc.NetLoadBalancer("web-lb", { name: "web-lb", address: vip.address });

const web = Array.from({ length: webCount }, (_, i) => {
  const name = `web-${i + 1}`;
  // No addresses come with the instance: its public address is the FloatingIp below.
  const instance = new svc.Instance(name, { name, planId: plan.id, imageId: image.id, region, ips: [], firewallEnabled: true });
  // VPC membership through an attachment (the instance's own vpcIds stays unset).
  const nic = new svc.VpcAttachment(`${name}-nic`, { instanceId: instance.id, vpcId: network.id });
  const publicIp = new svc.FloatingIp(`${name}-ip`, { family: "IPv4" });
  new svc.FloatingIpAttachment(`${name}-ip-attachment`, { ipId: publicIp.id, instanceId: instance.id });
  // Default-deny from the first rule: HTTP and HTTPS from anywhere, SSH from the admin range.
  new svc.FirewallRule(`${name}-http`, {
    instanceId: instance.id,
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    portStart: 80,
    priority: 10,
    description: "http",
  });
  new svc.FirewallRule(`${name}-https`, {
    instanceId: instance.id,
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    portStart: 443,
    priority: 10,
    description: "https",
  });
  new svc.FirewallRule(`${name}-ssh`, {
    instanceId: instance.id,
    type: "IPv4",
    protocol: "TCP",
    action: "ACCEPT",
    portStart: 22,
    remote: adminCidr,
    priority: 20,
    description: "ssh from admins",
  });
  const member = new svc.NetLoadBalancerMember(`${name}-lb`, { loadBalancerId: balancer.id, instanceId: instance.id });
  return { instance, nic, publicIp, member };
});

export const planName = plan.name;
export const imageName = image.name;
export const vpcRange = network.range;
export const loadBalancer = {
  id: balancer.id,
  name: balancer.name,
  address: balancer.address,
  members: web.map((w) => w.member.instanceId),
};
export const instances = web.map((w) => ({
  name: w.instance.name,
  id: w.instance.id,
  publicIp: w.publicIp.address,
  privateIp: w.nic.privateIp,
  state: w.instance.state,
}));
export const url = pulumi.interpolate`http://${balancer.address}/`;
