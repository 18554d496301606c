/**
 * Lookups under `pulumi.runtime.setMocks`: in a user's unit tests there is no API and no
 * configuration, so a lookup is answered by the mocks' `call` instead, as an invoke with the token
 * `svc:index:<lookup name>` (for example `svc:index:getPlans`, `svc:index:getImage`) and the
 * lookup's arguments as inputs; what `call` returns is the lookup's result. An invoke answers an
 * object, so a lookup that returns a list (getPlans, getImages, getNodes, ...) takes its list from
 * `{ items: [...] }`. The same tokens name the lookups of the provider plugin.
 */
import type { Inputs } from "@pulumi/pulumi";
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use: the plugin's start needs neither (lookups/common.ts) */
const invoke = (...args: Parameters<typeof import("@pulumi/pulumi/runtime/invoke").invoke>) =>
  (require("@pulumi/pulumi/runtime/invoke") as typeof import("@pulumi/pulumi/runtime/invoke")).invoke(...args);
const getMonitor = () => (require("@pulumi/pulumi/runtime/settings") as typeof import("@pulumi/pulumi/runtime/settings")).getMonitor();
/* eslint-enable @typescript-eslint/no-require-imports */

/** The invoke token a lookup answers to under mocks. */
const lookupToken = (name: string) => `svc:index:${name}`;

/** Whether the program runs under `pulumi.runtime.setMocks` (its monitor is the SDK's MockMonitor). */
export function underMocks(): boolean {
  return getMonitor()?.constructor?.name === "MockMonitor";
}

/** The mocks' answer to a lookup. */
export async function fromMocks<R>(name: string, args: unknown): Promise<R> {
  const answer = (await invoke(lookupToken(name), (args ?? {}) as Inputs)) as Record<string, unknown>;
  const keys = Object.keys(answer ?? {});
  return (keys.length === 1 && keys[0] === "items" && Array.isArray(answer.items) ? answer.items : answer) as R;
}
