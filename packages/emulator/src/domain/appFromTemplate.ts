/**
 * Deploying an app from a template (spec part 2, "App templates" deploy rules): each template
 * port gets its container_port as host port when free on the instance, else a random one from
 * 20000 to 60000; environment values are the template's defaults with the request's overrides
 * (a string replaces, null removes; a null default must be supplied), their placeholders
 * resolved once against the instance and the allocated ports and stored as final values.
 */
import { fieldError } from "../core/errors";
import type { WorkflowView } from "../core/choices";
import type { RouteContext } from "../core/router";
import type { Services } from "../core/services";
import type { InstanceRow } from "../model";
import { expandPlaceholders, loadTemplate, type AppTemplateRow, type Mount } from "./appTemplates";
import {
  allocateHostPort,
  assertInstanceReady,
  assertNameFree,
  deployNewApp,
  portKey,
  takenPorts,
  type AppRow,
  type PortMapping,
} from "./apps";

/** First address of a family on the instance (oldest floating IP first). */
function firstAddress(services: Services, instanceId: string, family: "IPv4" | "IPv6"): string | null {
  const ips = services.store.t.floatingIps.filter((ip) => ip.instanceId === instanceId && ip.family === family);
  ips.sort((a, b) => a.created.localeCompare(b.created) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  return ips[0]?.address ?? null;
}

function templatePorts(services: Services, instance: InstanceRow, template: AppTemplateRow): Map<string, PortMapping> {
  const taken = takenPorts(services, instance.id);
  const ports = new Map<string, PortMapping>();
  for (const p of template.ports) {
    const host = allocateHostPort(services, taken, p.container_port, p.protocol);
    taken.add(portKey(host, p.protocol));
    ports.set(p.name, { host_port: host, container_port: p.container_port, protocol: p.protocol, http: p.http });
  }
  return ports;
}

/** Template defaults, then overrides (string replaces, null removes); null defaults must be supplied. */
function mergeEnvironment(template: AppTemplateRow, overrides: Record<string, string | null>): Map<string, string> {
  const env = new Map<string, string | null>(template.environment.map((e) => [e.key, e.value]));
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null && env.get(key) !== null) env.delete(key);
    else env.set(key, value);
  }
  for (const [key, value] of env) {
    if (value === null) throw fieldError(`environment.${key}`, `the template leaves ${key} for you to supply: send a string value`);
  }
  return env as Map<string, string>;
}

function resolveEnvironment(
  services: Services,
  instance: InstanceRow,
  template: AppTemplateRow,
  env: Map<string, string>,
  ports: Map<string, PortMapping>,
) {
  const resolver = {
    hostPort: (name: string) => ports.get(name)?.host_port ?? null,
    containerPort: (name: string) => ports.get(name)?.container_port ?? null,
    ip4: () => firstAddress(services, instance.id, "IPv4"),
    ip6: () => firstAddress(services, instance.id, "IPv6"),
    random: (length: number) => services.store.rng.alnum(length),
  };
  const out: Record<string, string> = {};
  for (const [key, value] of env) {
    const result = expandPlaceholders(value, resolver);
    if ("error" in result) throw fieldError(`environment.${key}`, result.error);
    out[key] = result.value;
  }
  return out;
}

/** An app from a template (POST /v1/instances/{iid}/apps/from-template). */
export function deployFromTemplate(
  ctx: RouteContext,
  instance: InstanceRow,
  input: { template_id: string; name: string; environment: Record<string, string | null>; mounts?: Mount[]; domain: string | null },
): { app: AppRow; workflow: WorkflowView } {
  const template = loadTemplate(ctx.services, input.template_id);
  if (input.domain && !template.ports.some((p) => p.http))
    throw fieldError("domain", "the template has no http port, so it cannot take a domain");
  const env = mergeEnvironment(template, input.environment);
  assertInstanceReady(instance);
  assertNameFree(ctx.services, instance.workspaceId, input.name);
  const ports = templatePorts(ctx.services, instance, template);
  const environment = resolveEnvironment(ctx.services, instance, template, env, ports);
  return deployNewApp(ctx, instance, {
    name: input.name,
    image: template.image,
    environment,
    mounts: input.mounts ?? structuredClone(template.mounts),
    ports: [...ports.values()],
    domain: input.domain,
    templateId: template.id,
  });
}
