/**
 * Part 3 network commands (POST /v1/commands/...), the HTTP side: request schemas and the
 * route table. The rules are the area's domain (domain/netcommands.ts).
 */
import { z } from "zod";
import type { Domain } from "../core/domain";
import { accepted, ok } from "../core/router";
import { parseWith, zId } from "../core/validation";
import { loadInstance } from "../domain/instances";
import { floatingIpView, loadFloatingIp } from "../domain/floatingIps";
import { attachIp, detachIp, networkAutoAttach, setNetworkSuspended, FLOATING_IP_WRITE, INSTANCE_WRITE } from "../domain/netcommands";

const AttachIpBody = z.object({ ip: zId, instance: zId });
const DetachIpBody = z.object({ ip: zId });
const FamilyOptions = z.object({ filtered: z.boolean() });
const AutoAttachBody = z.object({
  instance: zId,
  skip_duplicate: z.boolean(),
  v4: FamilyOptions.nullish(),
  v6: FamilyOptions.nullish(),
});
const InstanceBody = z.object({ instance: zId });

const networkSuspension = (suspended: boolean) => (ctx: Parameters<typeof setNetworkSuspended>[0]) => {
  ctx.requireStaff();
  return ok(setNetworkSuspended(ctx, parseWith(InstanceBody, ctx.body).instance, suspended));
};

export const netCommandsDomain: Domain = {
  name: "netcommands",
  routes: [
    {
      method: "POST",
      path: "/v1/commands/attach-ip",
      handler: (ctx) => {
        const body = parseWith(AttachIpBody, ctx.body);
        const ip = loadFloatingIp(ctx, body.ip, FLOATING_IP_WRITE);
        const instance = loadInstance(ctx, body.instance, INSTANCE_WRITE);
        return ok(floatingIpView(ctx.services, attachIp(ctx, ip, instance)));
      },
    },
    {
      method: "POST",
      path: "/v1/commands/detach-ip",
      handler: (ctx) => {
        const body = parseWith(DetachIpBody, ctx.body);
        return ok(floatingIpView(ctx.services, detachIp(ctx, loadFloatingIp(ctx, body.ip, FLOATING_IP_WRITE))));
      },
    },
    {
      method: "POST",
      path: "/v1/commands/network-auto-attach",
      handler: (ctx) => {
        const body = parseWith(AutoAttachBody, ctx.body);
        return accepted(networkAutoAttach(ctx, loadInstance(ctx, body.instance, INSTANCE_WRITE), body));
      },
    },
    { method: "POST", path: "/v1/commands/suspend-network", handler: networkSuspension(true) },
    { method: "POST", path: "/v1/commands/unsuspend-network", handler: networkSuspension(false) },
  ],
};
