/**
 * What a resource file declares, read top to bottom like the spec's table for the resource:
 *
 * 1. `inputs`: a zod object of the inputs (camelCase), with every documented constraint, and
 *    `rules`: cross-field constraints as data (checked at preview, before any API call);
 * 2. `onChange`: for every input, what a change does — replace, sent in the update request, a
 *    named command, or ignore (an input without one does not compile);
 *    (both derived from the kind's `fields`, each declared once: provider/fields/declare.ts)
 * 3. `api`: the mapping onto the API (create, read, update steps, delete, lookup by name);
 * 4. `doc`, what the kind is for people; the exported class is generated from the definition and the
 *    kind's public interfaces (scripts/classes.ts, resources/generated/).
 *
 * `provider/lifecycle/index.ts` turns a definition into its lifecycle; nothing in it knows any one
 * resource.
 */
import type { Metering } from "./metering";
import type { z } from "./fields/zod";
import type { OperationContext } from "./context";
import type { FieldSet } from "./fields/declare";
import type { Workflow } from "./client/envelope";
import type { ChangeEffects } from "./fields/changeEffects";

/** A constraint on how a field may change from its recorded value (a disk cannot shrink). */
interface Transition<I> {
  field: keyof I & string;
  /** Returns the reason when the change from `old` to `next` is not allowed. */
  check(old: unknown, next: unknown): string | undefined;
}

/** A constraint across fields, checked at preview when every field it reads is known. */
export interface Rule<I> {
  /** Inputs the rule reads; the rule is skipped while any of them is unknown (preview of a dependency). */
  fields: Array<keyof I & string>;
  /** The property the failure is reported on (default: the first field). */
  property?: keyof I & string;
  /** Returns the reason (with the spec's rule) when violated. */
  check(inputs: Partial<I>): string | undefined;
}

export type Outputs = Record<string, unknown>;

/** What the create call answered: the new id and, when asynchronous, the workflow to wait on. */
export interface Created {
  /**
   * The new object's id. Absent when the answer is a bare workflow (a k3s cluster, node or
   * service): the lifecycle then finds the new object with `findExisting`, persistently, so an
   * accepted create is never lost to one failed lookup.
   */
  id?: string;
  workflow?: Workflow | null;
  /** Outputs only the create answer carries (a token's plaintext code): recorded once, kept after. */
  outputs?: Record<string, unknown>;
  /**
   * The new object as the create answer shows it, when that answer is the object itself (the
   * spec's "201 VPC"): recorded as read, so no GET repeats what the POST just said. Ignored when
   * the create also runs a workflow or the object has not settled.
   */
  current?: Outputs;
}

/** An update step: runs when any of the fields with its effect changed. */
export type UpdateStep<I, O> = (ctx: OperationContext, id: string, olds: O, news: I, changed: Array<keyof I & string>) => Promise<void>;

/** An object that already holds a declaration's natural key (see `ResourceApi.conflict`). */
export interface Conflict {
  id: string;
  /** What holds the key, as a sentence: `the workspace already has a Kubernetes cluster (id 7, ACTIVE)`. */
  description: string;
  /** The other way out besides adoptId: `choose another name`. */
  alternative?: string;
}

/**
 * One object of a kind that a workspace holds, as the kind's `list` finds it (svc-import, the
 * plugin's List).
 */
export interface Listed {
  /** The id a read takes (a membership's synthetic `<a>:<b>` included). */
  id: string;
  /** The API's name for the object, where it has one (svc-import derives logical names from it). */
  name?: string;
  /**
   * Why an import leaves the object out, in words: the API made it on its own with another object,
   * whose declaration makes it (`the boot disk of instance web-1`, an address its create allocated),
   * or it is on its way out (an instance scheduled for termination). svc-import says so; List omits it.
   */
  leftOut?: string;
}

interface ResourceApi<I, O extends Outputs, N extends string = never> {
  /** Sends the create request (no waiting). An ambiguous failure is recovered by the lifecycle. */
  create(ctx: OperationContext, inputs: I): Promise<Created>;
  /**
   * Where the API allows one object per key (one cluster per workspace, a name unique in its
   * workspace, one credential per registry host): the object that holds this declaration's key
   * now, looked up before the create is sent. The lifecycle never takes it over on its own (a
   * person may have made it); it stops with one message naming the exact adoptId to set.
   */
  conflict?(ctx: OperationContext, inputs: I): Promise<Conflict | undefined>;
  /**
   * Finds the resource this create made, by the inputs' unique name or key and, where names are
   * not unique, created since `ctx.startedAt` (`createdDuring`): used after an ambiguous create
   * failure (so a lost answer never leaves a duplicate or an orphan), to find the id of a create
   * answered with a bare workflow, and to resolve a create recorded as pending.
   */
  findExisting?(ctx: OperationContext, inputs: I): Promise<string | undefined>;
  /**
   * Every object of the kind in the workspace, each list followed to its last page (svc-import and
   * the plugin's List). Absent for kinds a workspace does not hold as objects (an installation, a
   * coupon).
   */
  list?(ctx: OperationContext, workspaceId: string): Promise<Listed[]>;
  /** Reads the resource: outputs (echoing the inputs as the API reports them), or undefined when gone. */
  get(ctx: OperationContext, id: string, prior: Partial<O> & Partial<I>): Promise<O | undefined>;
  /** Whether the resource has settled: true, false (still moving) or a failure message. */
  settled?(outputs: O): boolean | string;
  /**
   * Whether a recorded state is mid-operation (a create that ran out of time), so the next up
   * finishes it; default: not `settled`. Resources whose `settled` also covers health (a service
   * with fewer replicas than desired) narrow this to the transitional statuses.
   */
  inProgress?(outputs: O): boolean;
  /** The state shown in progress lines. */
  stateOf?(outputs: O): string;
  /**
   * Update steps by name: "updateRequest" for the fields whose effect is `updateRequest`, and each
   * step the kind declares (`updateSteps`, which the compiler holds this to).
   */
  update?: { updateRequest?: UpdateStep<I, O> } & Record<N, UpdateStep<I, O>>;
  /**
   * Update steps that also run right after creation, for inputs the create call cannot carry
   * (attach a new disk to its instance).
   */
  afterCreate?: Array<N | "updateRequest">;
  /** Sends the delete request; returns the workflow to wait on, if any. 404 means already gone. */
  delete(ctx: OperationContext, id: string, olds: O): Promise<Workflow | null | void>;
  /** A resource that still reads back but counts as deleted (an instance scheduled for termination). */
  isGone?(outputs: O): boolean;
  /**
   * The delete's success answer means the object is gone (the spec's synchronous deletes: 204, or
   * an audit log entry), so no read confirms it. Not for deletes answered 202 with no workflow,
   * which the spec calls asynchronous (a load balancer member, a BGP prefix).
   */
  goneOnAnswer?: boolean;
  /** Work to do before delete (detach a disk, drain...). */
  beforeDelete?(ctx: OperationContext, id: string, olds: O): Promise<void>;
}

export interface ResourceDefinition<
  I extends Record<string, unknown> = Record<string, unknown>,
  O extends Outputs = Outputs,
  N extends string = never,
> {
  /** Type name: the token is pulumi-nodejs:dynamic/svc:<kind>. */
  kind: string;
  /** What the kind is, for people: the generated class's TSDoc and the schema's description. */
  doc: string;
  /**
   * The kind's fields, each declared once (provider/fields/declare.ts): `...fromFields(fields)` fills in
   * `inputs`, `onChange`, `workspaceScoped`, `stableOutputs`, `secretOutputs`, `keepFromState`
   * (and `defaults` for a derived input), and `npm run generate` generates the public Args and Outputs.
   */
  fields: FieldSet;
  /** The inputs; `workspaceId`, `timeouts` and `adoptId` are added by the lifecycle where they apply. */
  inputs: z.ZodObject<z.ZodRawShape>;
  rules?: Rule<I>[];
  /**
   * Defaults the API applies that depend on other inputs (a firewall rule's remote is 0.0.0.0/0
   * or ::/0 by family), filled in at preview so the recorded inputs match what the API reports.
   */
  defaults?(inputs: Partial<I>): Partial<I>;
  /** Checked at preview against the previous inputs. */
  transitions?: Transition<I>[];
  onChange: ChangeEffects<I>;
  /** Workspace-scoped: gains a `workspaceId` input (default svc:workspaceId) that replaces on change. */
  workspaceScoped?: boolean;
  /** Outputs that can never change during the resource's life. */
  stableOutputs?: string[];
  /** Outputs that hold secrets (marked secret in state). */
  secretOutputs?: string[];
  /**
   * Outputs that are write-only in the API and must be kept from the prior state on read. A read
   * may return null for such a key to mark it stale (changed outside Pulumi); the next up rewrites it.
   */
  keepFromState?: string[];
  /** The input check names where the program declares none (`autonamed` in provider/fields/declare.ts). */
  autonamed?: string;
  /** How a resource reads in messages: `Disk "data"` (dynamic providers never learn the Pulumi name). */
  label?(inputs: Partial<I>, id?: string): string;
  /** An old state that cannot be repaired in place (a failed create): the next up replaces it. */
  broken?(olds: O): boolean;
  /**
   * Inputs that must be unique among live resources (an app's name in its workspace). When a
   * replacement keeps them unchanged, the old resource is deleted first.
   */
  uniqueKey?: Array<keyof I & string> | ((inputs: Partial<I>) => unknown);
  /**
   * Whether the old resource must be deleted before its replacement is created, beyond a unique
   * key it keeps: always (`true`), or where the two would collide otherwise (an app's host ports on
   * the same instance). By default a replacement is created first, unless `uniqueKey` says the two
   * would share a unique name.
   */
  deleteFirst?: boolean | ((olds: Partial<I>, news: Partial<I>) => boolean);
  /**
   * What an `adoptId` looks like for this kind (default: digits). Resources with a synthetic id
   * (an attachment "instance:vpc") widen it.
   */
  adoptIdPattern?: RegExp;
  /** The TSDoc of `adoptId` in the generated Args where the id is synthetic (the form it takes); else CommonArgs's. */
  adoptIdDoc?: string;
  /**
   * The declaration of an object this stack did not create (an import), from the inputs its
   * outputs echo: leaves out what belongs to another shape of the kind or to another resource's
   * declaration (a PLAN instance's CPU count, its VPC memberships: VpcAttachments). Default: all.
   */
  declaredFrom?(echoed: Partial<I>, defaultWorkspace: string | null): Partial<I>;
  /**
   * The outputs without what other resources of a stack attach to the object (an instance's VPC
   * joined by a VpcAttachment, an address put on it by a FloatingIpAttachment): those are the
   * attachments' outputs. So the first refresh after an up moves none of the object's outputs
   * that the up's own attachments changed. `declared`: the object's inputs; `recorded`: its
   * outputs before (none at a create). Not applied to an import, which reads all there is.
   */
  ownOutputs?(outputs: O, declared: Partial<I>, recorded: Partial<O> | undefined): O;
  /** The API has no delete (workspaces): `pulumi destroy` only forgets the resource. */
  retainOnDelete?: boolean;
  /** How the policy pack prices the kind, or why it is not metered (required: nothing is free by omission). */
  pricing: Metering;
  /** The kind's named update steps, in the order they run after the update request (`updateSteps(...).order`). */
  steps?: readonly N[];
  api: ResourceApi<I, O, N>;
}

/** A kind's definition with its step names widened: what the lifecycle, the plugin and the generators take. */
export type AnyDefinition = ResourceDefinition<Record<string, unknown>, Outputs, string>;
