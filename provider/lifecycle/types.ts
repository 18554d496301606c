/** What the lifecycle's callers see: the operations, what one call carries, what the runtime gives. */
import type * as pulumi from "@pulumi/pulumi";
import type { SvcClient } from "../client/client";
import type { ProviderConfig } from "../runtime/config";
import type { Interrupted } from "./interruptedVerdict";
import type { Listed } from "../definition";
import type { Naming } from "./autoname";

/** A resource's properties as the engine passes them. */
export type Props = Record<string, unknown>;

/** Access to configuration and the client, resolved at the first operation that needs them. */
export interface ProviderRuntime {
  config(): ProviderConfig;
  client(): SvcClient;
  /** The default workspace (svc:workspaceId / SVC_WORKSPACE_ID), if configured; never throws. */
  defaultWorkspace(): string | null;
  /**
   * Configuration problems for `check` to report (provider/configure/providerRuntime.ts): missing
   * or malformed settings, and with `probeTheApi` whether the API answers and accepts the token
   * (once per process). Each distinct problem comes in full once per process, then as a short pointer.
   */
  preflight?(probeTheApi: boolean): Promise<pulumi.dynamic.CheckFailure[]>;
}

/**
 * The resource options a provider acts on, by Pulumi's names (provider/lifecycle/options.ts). The
 * engine applies them itself on the plugin face, which never passes them; the dynamic face passes
 * those its classes carry (provider/dynamic/carriedOptions.ts).
 */
export interface ResourceOptions {
  /** `import`: take the object with this id into the stack as it is, writing nothing (provider/lifecycle/importOption.ts). */
  import?: string;
  /** `ignoreChanges`: property paths whose recorded value a change keeps. */
  ignoreChanges?: string[];
  /** `replaceOnChanges`: property paths a change under which replaces the resource. */
  replaceOnChanges?: string[];
}

/**
 * What one engine call carries beside the resource's properties, each member where a face learns
 * it: the plugin face from the gRPC request, the dynamic face from what its resources carry
 * (provider/dynamic/adapter.ts).
 */
export interface Call {
  /** The resource options to act on (check, diff, create, update). */
  options?: ResourceOptions;
  /** Where the face's resource carries `options`, which names an option check refuses (`<optionsAt>.import`); absent: `options`. */
  optionsAt?: string;
  /** The engine's deadline for this operation in seconds (the `customTimeouts` option: create, update, delete); 0 or absent: none. */
  timeoutSeconds?: number;
  /** The recorded inputs, for diff: the plugin face has them, the dynamic host passes recorded outputs only. */
  oldInputs?: Props;
  /** How to name the resource where the program declares no name (check; provider/lifecycle/autoname.ts). */
  naming?: Naming;
}

/** What check answers: the inputs to record and the failures, and the options beside them. */
export interface CheckResult extends pulumi.dynamic.CheckResult {
  /** The options as check validated them, `import` only while the resource is new: for a face that records them (absent: none passed). */
  options?: ResourceOptions;
}

/** How one property (a leaf, named by its path) changes in a diff (the plugin face forwards it to the engine). */
export interface PropertyChange {
  kind: "add" | "delete" | "update";
  replace: boolean;
}

export interface DiffResult extends pulumi.dynamic.DiffResult {
  /** Every changed leaf by its property path (`ports[0].port`), and whether its change replaces the resource. */
  detailedDiff: Record<string, PropertyChange>;
  /**
   * Whether a replacement, for any reason, must delete the old object first (its unique key
   * stays): `deleteBeforeReplace` says it of this diff's own replacement; the plugin tells the
   * engine this, which replaces on its own when a replaceOnChanges path matches.
   */
  replaceDeletesFirst: boolean;
}

/**
 * The lifecycle of one kind, independent of the face that serves it: it sees a resource's own
 * properties and a typed call, never what a face carries beside them. The dynamic face installs
 * it on the shim as the dynamic-provider host calls it (provider/dynamic/adapter.ts); the plugin
 * face (plugin/server.ts) makes the same calls from the provider protocol.
 */
export interface Lifecycle {
  check(olds: Props, news: Props, call?: Call): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props, call?: Call): Promise<DiffResult>;
  create(props: Props, call?: Call): Promise<pulumi.dynamic.CreateResult>;
  /**
   * `declared`: the inputs recorded last (the engine passes the plugin's Read them; the dynamic
   * face carries them in the outputs), so a refresh records those alone, as the API reports them.
   */
  read(id: string, props: Props, declared?: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props, call?: Call): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props, call?: Call): Promise<void>;
  /**
   * The inputs a program declares to reproduce an object it did not create (what an import records
   * and a generated program says): they pass check and diff clean (provider/lifecycle/declaration.ts).
   */
  declarationOf(outputs: Props): Props;
  /** Every object of the kind a workspace holds (absent for kinds it holds none of as objects). */
  list?(workspaceId: string): Promise<Listed[]>;
  /**
   * What a create interrupted with its engine (a pending create in the stack) made in the API,
   * judged from the declaration's inputs and when the interrupted update began (provider/lifecycle/interruptedVerdict.ts).
   */
  interrupted(props: Props, since: number): Promise<Interrupted>;
}
