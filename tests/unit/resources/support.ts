/**
 * What the resources' unit tests share: declarations that several kinds' tests start from, and a
 * scripted API client for the tests of a spec's API mapping. One declaration each, imported.
 */
import type { SvcClient } from "../../../provider/client/client";
import type { OperationContext } from "../../../provider/context";
import { ApiError } from "../../../provider/errors";

// Compute declarations (Instance, Disk, Image) that the boundary tables and emulatorLimits.test.ts vary.
export const GiB = 1024 ** 3;
export const plan = { name: "vm", planId: "7", region: "NA_01" };
export const custom = {
  name: "vm",
  type: "CUSTOM",
  group: "RYZEN",
  cpu: 2,
  memoryBytes: 2 * GiB,
  storage: [{ sizeBytes: 20 * GiB, boot: true }],
  region: "NA_01",
};
export const disk = { name: "data", size: 10 * GiB, backend: "LOCAL", region: "NA_01" };
export const image = { kind: "TEMPLATE", name: "golden", source: { type: "URL", url: "https://images.example.com/golden.qcow2" } };

/** n values made from their index: the long lists that limits are tested with. */
export const times = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));

export type Row = [what: string, spec: unknown, inputs: Record<string, unknown>];
export type Refused = [what: string, spec: unknown, inputs: Record<string, unknown>, property: string, reason: RegExp];

// Instance ids above 2^53 (ids are strings of digits; a number would lose the last digit).
export const I1 = "9007199254740993";
export const I2 = "9007199254740995";

// ---------------------------------------------------------------------------------------------
// API mappings with a scripted client: the paths they take and what they conclude.

type Call = { method: string; path: string; query?: unknown; body?: unknown };

export function fakeContext(routes: Record<string, (call: Call) => unknown>, operation: OperationContext["operation"] = "read") {
  const calls: Call[] = [];
  const answer = async (call: Call) => {
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (!route) throw new ApiError(call.method, call.path, 404, "not found");
    return route(call);
  };
  const client = {
    get: (path: string, query?: unknown) => answer({ method: "GET", path, query }),
    post: (path: string, body?: unknown) => answer({ method: "POST", path, body }),
    put: (path: string, body?: unknown) => answer({ method: "PUT", path, body }),
    patch: (path: string, body?: unknown) => answer({ method: "PATCH", path, body }),
    delete: (path: string) => answer({ method: "DELETE", path }),
  } as unknown as SvcClient;
  const ctx: OperationContext = {
    client,
    config: { baseUrl: "http://127.0.0.1", token: "t", workspaceId: "42" },
    label: "Test",
    operation,
    deadline: Date.now() + 60_000,
    startedAt: Date.now(),
    waitForWorkflow: async () => undefined,
    waitForState: async (read) => read(),
    notice: () => undefined,
    detail: () => undefined,
    keepTrying: (_what, lookup) => lookup(),
  };
  return { ctx, calls };
}

export const page = (items: unknown[]) => ({ items, hasNext: false, hasPrevious: false, after: null, before: null });
export const refused = (method: string, path: string) => () => {
  throw new ApiError(method, path, 400, "This endpoint needs an administrator (staff) session; a user-scoped token cannot call it");
};
