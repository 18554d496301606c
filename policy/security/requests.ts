/**
 * The properties of each resource exactly as the engine sent them to the pack, by URN. The policy
 * SDK unwraps secrets before a policy sees a value (deserializeProperties(..., false) in its
 * server, 1.15 to 1.21), so whether an environment value is a Pulumi secret is only in the
 * request itself. As deployment.ts does for ConfigureStack, this wraps the handlers @pulumi/policy
 * gives its gRPC server: `analyze` (one resource) and `analyzeStack` (all of them) record each
 * resource's properties (values.ts reads them), then the SDK's own handler runs unchanged.
 */
import * as path from "node:path";
import { readValue } from "./values";

interface StructLike {
  toJavaScript(): unknown;
}
interface ResourceRequest {
  getUrn(): string;
  getProperties(): StructLike | undefined;
}
interface StackRequest {
  getResourcesList(): ResourceRequest[];
}

const seen = new Map<string, Record<string, unknown>>();

/** The properties the engine sent for a resource (values.ts's reading), or undefined when none were recorded. */
export function sentProperties(urn: string): Record<string, unknown> | undefined {
  return seen.get(urn);
}

function record(resource: ResourceRequest): void {
  seen.set(resource.getUrn(), (readValue(resource.getProperties()?.toJavaScript() ?? {}) ?? {}) as Record<string, unknown>);
}

type Handler = (call: { request: unknown }, callback: unknown) => unknown;

/** Installs the recording; call before @pulumi/policy makes its server (before `new PolicyPack`). */
export function recordRequests(): void {
  const policyDir = path.dirname(require.resolve("@pulumi/policy"));
  // A path resolved at run time: the grpc-js @pulumi/policy itself loads, which need not be this package's.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [policyDir] })) as typeof import("@grpc/grpc-js");
  const addService = grpc.Server.prototype.addService;
  const recorders: Record<string, (request: unknown) => void> = {
    analyze: (request) => record(request as ResourceRequest),
    analyzeStack: (request) => (request as StackRequest).getResourcesList().forEach(record),
  };
  grpc.Server.prototype.addService = function (service, implementation) {
    const wrapped: Record<string, unknown> = { ...implementation };
    for (const [method, recorder] of Object.entries(recorders)) {
      const own = (implementation as Record<string, Handler | undefined>)[method];
      if (!own) continue;
      wrapped[method] = (call: { request: unknown }, callback: unknown) => {
        try {
          recorder(call.request);
        } catch (err) {
          console.error(`pulumi-svc security pack: ${method} request not understood: ${(err as Error).message}`);
        }
        return own(call, callback);
      };
    }
    return addService.call(this, service, wrapped as typeof implementation);
  };
}
