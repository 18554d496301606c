/**
 * Every resource kind and where its definition lives. A resource's `__provider` text names only
 * its kind; the provider process loads the definition from here on first use (through the
 * dynamic entry, dynamic/entry.ts, or the plugin), and so does the policy pack (a kind's
 * pricing is in its definition), which is why nothing here is loaded before it is asked for: no
 * resource module, no lifecycle.
 */
import type { AnyDefinition } from "../provider/definition";

/**
 * Every resource kind, in documentation order: the one list of kinds. Each kind's module is its
 * name with a lower-case first letter (Vpc: resources/vpc.ts, FirewallRule: firewallRule.ts), and
 * exports its definition as `<module>Definition` and its class under the kind's name. The provider process
 * loads a module from here on first use; index.ts's exports are generated from this list (`npm run
 * generate`; tests/unit/generated.test.ts fails when index.ts is stale), as are the docs pages, the
 * reference table and the schema.
 */
const KINDS = [
  "Vpc",
  "Disk",
  "FirewallRule",
  "Instance",
  // k3s (resources/k3s*.ts)
  "K3sCluster",
  "K3sNode",
  "K3sService",
  "K3sSecret",
  // access and billing (workspace, invites, tokens, SSH keys, registry credentials, coupons)
  "Workspace",
  "WorkspaceInvite",
  "ApiToken",
  "SshKey",
  "RegistryCredential",
  "Coupon",
  // apps, images and recipes
  "App",
  "AppTemplate",
  "Image",
  "Snapshot",
  "Recipe",
  "RecipeInstallation",
  // networking (VPC attachments, floating IPs, load balancers, BGP)
  "VpcAttachment",
  "FloatingIp",
  "FloatingIpAttachment",
  "NetLoadBalancer",
  "NetLoadBalancerMember",
  "BgpConfig",
  "BgpPrefix",
] as const;

/** Every resource kind, in documentation order (KINDS). */
export function kinds(): string[] {
  return [...KINDS];
}

/** The module (resources/<module>.ts) that declares a kind, or undefined for a kind not listed. */
export function moduleOf(kind: string): string | undefined {
  return (KINDS as readonly string[]).includes(kind) ? kind[0].toLowerCase() + kind.slice(1) : undefined;
}

/** The file a kind's definition lives in (for generated documentation). */
export function sourceFileOf(kind: string): string {
  return `resources/${moduleOf(kind)}.ts`;
}

export function definitionOf(kind: string): AnyDefinition {
  const module = moduleOf(kind);
  if (!module) throw new Error(`pulumi-svc has no resource kind "${kind}" (state written by another version of pulumi-svc?)`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, in the provider process
  const definition = (require(`./${module}`) as Record<string, AnyDefinition | undefined>)[`${module}Definition`];
  if (definition?.kind !== kind) throw new Error(`internal: resources/${module}.ts exports no ${module}Definition of kind ${kind}`);
  return definition;
}
