/**
 * Lookups: read-only queries a program uses to pick plans, images, nodes... Each comes in a
 * plain form (a Promise) and an Output form (`...Output`, taking Inputs).
 *
 * Dynamic providers cannot serve invokes, so lookups run in the program's own process with the
 * same configuration as the resources (svc:baseUrl, svc:token, svc:workspaceId, or the SVC_*
 * environment). They only read, so they also run during preview.
 *
 * The SDK comes in by its modules (`output`, `runtime/config`), not its index: the plugin face
 * answers invokes with these functions, and the index (the automation API, closure serialization,
 * TypeScript) cost the plugin process ~300 ms before its first answer, which a refresh waits for.
 * Those modules load at a lookup's first use, not with this file: the plugin answers invokes with
 * its own client (withProviderClient) and never needs them, and its start is what the engine waits
 * for on every command (issue 38, bench/README.md "Plugin start").
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's modules load on first use (above) */
const toOutput: typeof import("@pulumi/pulumi/output").output = (value) => require("@pulumi/pulumi/output").output(value);
const getConfig = (key: string): string | undefined =>
  (require("@pulumi/pulumi/runtime/config") as typeof import("@pulumi/pulumi/runtime/config")).getConfig(key);
// Only for a lookup given a provider: a program without one loads neither.
const settingsOf: typeof import("../../provider/dynamic/explicitProvider").settingsOf = (provider) =>
  (require("../../provider/dynamic/explicitProvider") as typeof import("../../provider/dynamic/explicitProvider")).settingsOf(provider);
const configSources: typeof import("../../provider/configure/configSources").configSources = (args, variables) =>
  (require("../../provider/configure/configSources") as typeof import("../../provider/configure/configSources")).configSources(
    args,
    variables,
  );
/* eslint-enable @typescript-eslint/no-require-imports */
import { SvcClient } from "../../provider/client/client";
import { resolveConfig, type ProviderConfig } from "../../provider/runtime/config";
import { ApiError, ConfigError, forPeople, NetworkError } from "../../provider/errors";
import { fromMocks, underMocks } from "./mocks";

type LookupClient = { client: SvcClient; config: ProviderConfig };

let cached: LookupClient | undefined;
const providerScope = new AsyncLocalStorage<() => LookupClient>();

/**
 * Runs lookups with a provider's client and configuration: the plugin face answers the invoke
 * `svc:index:<lookup>` with the same functions, configured by its provider (not by the program).
 */
export function withProviderClient<T>(client: () => LookupClient, fn: () => Promise<T>): Promise<T> {
  return providerScope.run(client, fn);
}

/** The program-side client, configured like the provider (stack config first, environment second). */
export function lookupClient(): LookupClient {
  const provider = providerScope.getStore();
  if (provider) return provider();
  if (!cached) {
    const config = resolveConfig({ get: (key) => getConfig(key), env: process.env });
    cached = { client: new SvcClient(config), config };
  }
  return cached;
}

/** What a lookup takes beside its arguments, as the SDK's invokes do: `provider`, an explicit `svc.Provider`. */
type LookupOptions = Pick<pulumi.InvokeOptions, "provider">;

/** An Output's value, or undefined while any of it is unknown (a preview): the SDK's own `promise()`, absent from its types. */
const valueOf = <T>(o: pulumi.Output<T>): Promise<T | undefined> => (o as unknown as { promise(): Promise<T | undefined> }).promise();

/** Each explicit provider's client, made at its first lookup. */
const providerClients = new WeakMap<pulumi.ProviderResource, Promise<LookupClient>>();

/**
 * The client of an explicit `svc.Provider`: its settings, each falling back to the environment as
 * in its provider process (provider/dynamic/install.ts), never to the stack's `svc:*` config, which
 * belongs to the default provider.
 */
function providerClient(provider: pulumi.ProviderResource): Promise<LookupClient> {
  let client = providerClients.get(provider);
  if (!client) {
    client = (async () => {
      const settings = settingsOf(provider);
      if (!settings)
        throw new ConfigError(`a lookup's provider must be an svc.Provider; ${provider.constructor.name} is another package's`);
      const values = await valueOf(settings);
      if (values === undefined)
        throw new ConfigError("the lookup's svc.Provider has a setting known only at `pulumi up` (an output of a resource not made yet)");
      const config = resolveConfig({ ...configSources(values, {}), explicit: true });
      return { client: new SvcClient(config), config };
    })();
    providerClients.set(provider, client);
  }
  return client;
}

/** Runs a lookup with its options' provider, if any (a scope of `withProviderClient`). */
async function withOptions<T>(opts: LookupOptions | undefined, fn: () => Promise<T>): Promise<T> {
  if (!opts?.provider) return fn();
  const client = await providerClient(opts.provider);
  return withProviderClient(() => client, fn);
}

export function workspaceOf(args: { workspaceId?: string }): string {
  const ws = args.workspaceId ?? lookupClient().config.workspaceId;
  if (!ws) throw new Error("this lookup needs a workspace: pass workspaceId, or set svc:workspaceId / SVC_WORKSPACE_ID");
  return ws;
}

/**
 * A problem every lookup of the program shares (the configuration, an API nothing answers at, a
 * rejected token), as a key; undefined for a problem of one lookup.
 */
function sharedProblem(err: unknown): string | undefined {
  if (err instanceof ConfigError) return `config: ${err.message}`;
  if (err instanceof NetworkError && err.notSent) return "unreachable";
  if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return `token: ${err.status}`;
  return undefined;
}

/** The first error of each shared problem in this program: later lookups fail with the same object. */
const sharedFailures = new Map<string, unknown>();

/**
 * Lookup errors reach people as their message alone (`forPeople`). The runtime reports each error
 * object once, so every lookup that fails on a shared problem (a missing token, an unreachable
 * API) rethrows the first one's error: the program prints it once, not once per lookup.
 */
function failOnce(err: unknown): never {
  const key = sharedProblem(err);
  if (key !== undefined) {
    if (sharedFailures.has(key)) throw sharedFailures.get(key);
    sharedFailures.set(key, err);
  }
  throw forPeople(err);
}

/** A lookup as users call it: answered by the mocks in unit tests (mocks.ts), by the API otherwise (with its options' provider). */
function answered<A extends [args?: unknown], R>(fn: (...args: A) => Promise<R>): (args: A[0], opts?: LookupOptions) => Promise<R> {
  if (!fn.name) throw new Error("internal: a lookup must be a named function (its name is its mock token)");
  return (args, opts) => (underMocks() ? fromMocks<R>(fn.name, args) : withOptions(opts, () => fn(...([args] as unknown as A))));
}

/**
 * A lookup's arguments in Output form: each field an Input, like the SDK's own invokes. A plain
 * object type (not `Input<A>` as a whole), so a misspelt field fails to compile.
 */
type LookupInputs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** The Output form's parameters: optional when the plain lookup's argument is; options after it. */
type OutputFormArgs<P> = undefined extends P
  ? [args?: LookupInputs<NonNullable<P>>, opts?: LookupOptions]
  : [args: LookupInputs<P>, opts?: LookupOptions];

/** The plain form's parameters: the lookup's own, options after them. */
type PlainFormArgs<A extends [args?: unknown]> = undefined extends A[0]
  ? [args?: A[0], opts?: LookupOptions]
  : [args: A[0], opts?: LookupOptions];

/**
 * The two forms users call of one area lookup, made here for every lookup (resources/lookups/index.ts):
 * plain (a Promise) and Output (`...Output`, each argument field an Input; the argument may be
 * left out when the plain form's may). Both take invoke options after the arguments (`{ provider }`),
 * are answered by the mocks under unit tests and fail with errors worded for people.
 */
export function lookupForms<A extends [args?: unknown], R>(
  fn: (...args: A) => Promise<R>,
): [plain: (...args: PlainFormArgs<A>) => Promise<R>, output: (...args: OutputFormArgs<A[0]>) => pulumi.Output<R>] {
  const lookup = answered(fn);
  const plain = (...[args, opts]: PlainFormArgs<A>) => lookup(args, opts).catch(failOnce);
  const output = (...[args, opts]: OutputFormArgs<A[0]>) =>
    toOutput(args ?? {}).apply((inputs) => lookup(inputs as A[0], opts).catch(failOnce)) as pulumi.Output<R>;
  return [plain, output];
}
