/**
 * Which stack the engine runs this policy pack for, and that stack's configuration. Engines tell a
 * Node.js pack in two ways:
 *
 *  - in its environment: pulumi 3.163 starts the pack through `pulumi-analyzer-policy` with
 *    PULUMI_CONFIG and the stack in PULUMI_ORGANIZATION/PULUMI_PROJECT/PULUMI_STACK and their
 *    PULUMI_NODEJS_* twins; a newer engine starts it through the Node.js language host's RunPlugin,
 *    and the host of the same release (a PolicyProxy, sdk/policy_proxy.go) sets PULUMI_CONFIG and
 *    only the PULUMI_NODEJS_* names (pulumi-language-nodejs main.go, RunPlugin);
 *  - in the Analyzer's ConfigureStack call, which engines since about 3.180 send right after the
 *    pack starts (stack, project, organization, configuration, its secret keys: analyzer.proto).
 *    Under a language host older than its engine (this repository's newest CLI runs the 3.163
 *    hosts, scripts/ensure-pulumi.sh) that call is the only place the stack is named.
 *
 * @pulumi/policy keeps nothing of ConfigureStack but the stack's tags (1.21) or does not answer it
 * (1.15), so `listenForStack` wraps the handler the pack's gRPC server is given: the request is
 * read, then the pack's own handler (or an empty answer) runs as before.
 */
import * as path from "node:path";

/** The stack a deployment is for: `organization` is "organization" on a DIY backend. */
export interface StackRef {
  organization?: string;
  project: string;
  stack: string;
}

/** The stack named in the environment (the PULUMI_NODEJS_* names first, as the SDK reads them), or undefined. */
export function stackFromEnv(env: NodeJS.ProcessEnv): StackRef | undefined {
  const project = env.PULUMI_NODEJS_PROJECT || env.PULUMI_PROJECT;
  const stack = env.PULUMI_NODEJS_STACK || env.PULUMI_STACK;
  if (!project || !stack) return undefined;
  return { organization: env.PULUMI_NODEJS_ORGANIZATION || env.PULUMI_ORGANIZATION || undefined, project, stack };
}

/** What ConfigureStack carries that the pack uses (the generated message's getters). */
export interface StackConfigureRequest {
  getStack(): string;
  getProject(): string;
  getOrganization(): string;
  getConfigMap(): { forEach(fn: (value: string, key: string) => void): void };
  getConfigSecretKeysList(): string[];
}

/** The stack and configuration of a ConfigureStack request. */
export function fromConfigureStack(request: StackConfigureRequest): {
  stack: StackRef;
  config: Record<string, string>;
  secretKeys: string[];
} {
  const config: Record<string, string> = {};
  request.getConfigMap().forEach((value, key) => (config[key] = value));
  return {
    stack: { organization: request.getOrganization() || undefined, project: request.getProject(), stack: request.getStack() },
    config,
    secretKeys: request.getConfigSecretKeysList(),
  };
}

type Handler = (call: { request: StackConfigureRequest }, callback: (err: null, response?: unknown) => void) => void;
interface ServiceMethod {
  responseType?: new () => unknown;
}

/**
 * Calls `onConfigure` with what each ConfigureStack request says, once the pack's gRPC server is
 * made by @pulumi/policy (call before it loads). The grpc-js patched is the one @pulumi/policy
 * resolves, which need not be this package's.
 */
export function listenForStack(onConfigure: (request: StackConfigureRequest) => void): void {
  const policyDir = path.dirname(require.resolve("@pulumi/policy"));
  // A path resolved at run time, so a require: an import would bind this package's own grpc-js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [policyDir] })) as typeof import("@grpc/grpc-js");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, implementation) {
    const method = (service as unknown as Record<string, ServiceMethod | undefined>).configureStack;
    if (method) {
      const own = (implementation as Record<string, Handler | undefined>).configureStack;
      const handler: Handler = (call, callback) => {
        try {
          onConfigure(call.request);
        } catch (err) {
          console.error(`pulumi-svc policy pack: ConfigureStack not understood: ${(err as Error).message}`);
        }
        if (own) own(call, callback);
        else callback(null, method.responseType ? new method.responseType() : undefined);
      };
      implementation = { ...implementation, configureStack: handler as unknown as typeof implementation.configureStack };
    }
    return addService.call(this, service, implementation);
  };
}
