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
/* eslint-enable @typescript-eslint/no-require-imports */
import { SvcClient } from "../../provider/client";
import { resolveConfig, type ProviderConfig } from "../../provider/config";
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

/** A lookup as users call it: answered by the mocks in unit tests (mocks.ts), by the API otherwise. */
function answered<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  if (!fn.name) throw new Error("internal: a lookup must be a named function (its name is its mock token)");
  return (...args) => (underMocks() ? fromMocks<R>(fn.name, args[0]) : fn(...args));
}

/**
 * A lookup's arguments in Output form: each field an Input, like the SDK's own invokes. A plain
 * object type (not `Input<A>` as a whole), so a misspelt field fails to compile.
 */
export type LookupInputs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** The Output form's parameters: optional when the plain lookup's argument is. */
type OutputFormArgs<P> = undefined extends P ? [args?: LookupInputs<NonNullable<P>>] : [args: LookupInputs<P>];

/**
 * The two forms users call of one area lookup, made here for every lookup (resources/lookups/index.ts):
 * plain (a Promise) and Output (`...Output`, each argument field an Input; the argument may be
 * left out when the plain form's may). Both are answered by the mocks under unit tests and fail
 * with errors worded for people.
 */
export function lookupForms<A extends [args?: unknown], R>(
  fn: (...args: A) => Promise<R>,
): [plain: (...args: A) => Promise<R>, output: (...args: OutputFormArgs<A[0]>) => pulumi.Output<R>] {
  const lookup = answered(fn);
  const plain = (...args: A) => lookup(...args).catch(failOnce);
  const output = (...args: OutputFormArgs<A[0]>) =>
    toOutput(args[0] ?? {}).apply((inputs) => plain(...([inputs] as unknown as A))) as pulumi.Output<R>;
  return [plain, output];
}
