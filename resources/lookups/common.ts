/**
 * Lookups: read-only queries a program uses to pick plans, images, nodes... Each comes in a
 * plain form (a Promise) and an Output form (`...Output`, taking Inputs).
 *
 * Dynamic providers cannot serve invokes, so lookups run in the program's own process with the
 * same configuration as the resources (svc:baseUrl, svc:token, svc:workspaceId, or the SVC_*
 * environment). They only read, so they also run during preview.
 */
import * as pulumi from "@pulumi/pulumi";
import { SvcClient } from "../../provider/client";
import { resolveConfig, type ProviderConfig } from "../../provider/config";

let cached: { client: SvcClient; config: ProviderConfig } | undefined;

/** The program-side client, configured like the provider (stack config first, environment second). */
export function lookupClient(): { client: SvcClient; config: ProviderConfig } {
  if (!cached) {
    const config = resolveConfig({ get: (key) => pulumi.runtime.getConfig(key), env: process.env });
    cached = { client: new SvcClient(config), config };
  }
  return cached;
}

export function workspaceOf(args: { workspaceId?: string }): string {
  const ws = args.workspaceId ?? lookupClient().config.workspaceId;
  if (!ws) throw new Error("this lookup needs a workspace: pass workspaceId, or set svc:workspaceId / SVC_WORKSPACE_ID");
  return ws;
}

/**
 * Lookup errors reach people as their message alone. The program's runtime prints an unhandled
 * error with util.inspect, which (Node 20) can loop until "RangeError: Invalid string length" on
 * some stack frames through node_modules, hiding the message; the message already says what
 * failed and what to do. PULUMI_SVC_DEBUG=1 keeps the frames.
 */
function forPeople(err: unknown): never {
  if (err instanceof Error && !process.env.PULUMI_SVC_DEBUG) err.stack = "";
  throw err;
}

/** A plain lookup whose errors are worded for people. */
export function plainForm<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => fn(...args).catch(forPeople);
}

/** Turns a plain lookup into its Output form. */
export function outputForm<A extends object, R>(fn: (args: A) => Promise<R>): (args: pulumi.Input<A>) => pulumi.Output<R> {
  return (args) => pulumi.output(args).apply((plain) => fn(plain as A).catch(forPeople)) as pulumi.Output<R>;
}

