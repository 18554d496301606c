/**
 * Entry point of `pulumi-resource-svc`: the engine starts it with its own address as the first
 * argument and reads the port this process listens on from the first line of stdout.
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { logToEngine } from "./log";

export function main(argv: string[] = process.argv.slice(2)): void {
  const engine = argv.find((a) => !a.startsWith("-"));
  if (engine) logToEngine(engine);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, servedOnFirstCall());
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      process.stderr.write(`pulumi-resource-svc: cannot listen: ${err.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
  });
  exitWhenOrphaned();
}

type Method = (...args: unknown[]) => unknown;

/**
 * The service (./server.ts), loaded at the first call rather than before the port is printed:
 * the engine waits for the port on every command, and the lifecycle with zod and the HTTP client
 * was a third of that wait (85 of 246 ms from dist; bench/README.md, "Plugin-start benchmark").
 * Each method of the protocol forwards to the one the service defines; one it lacks (a protocol
 * newer than it) answers UNIMPLEMENTED, as grpc-js does for a method not given.
 */
function servedOnFirstCall(): grpc.UntypedServiceImplementation {
  let served: Record<string, Method> | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first call, not with the entry
  const load = () => (served ??= (require("./server") as typeof import("./server")).providerService() as Record<string, Method>);
  const forward =
    (name: string): Method =>
    (...args) => {
      const method = load()[name];
      if (method) return method(...args);
      const [call, callback] = args as [grpc.ServerWritableStream<unknown, unknown>, grpc.sendUnaryData<unknown> | undefined];
      const error = Object.assign(new Error(`pulumi-svc does not implement ${name}`), { code: grpc.status.UNIMPLEMENTED });
      if (callback) callback(error);
      else call.destroy(error);
    };
  return Object.fromEntries(Object.keys(ResourceProviderService).map((name) => [name, forward(name)])) as grpc.UntypedServiceImplementation;
}

/**
 * The engine kills the plugins it starts when it is done, but a plugin started by another plugin
 * (the YAML language host loads schemas through its own provider instances) can outlive its
 * parent: once re-parented, nobody will call it again, so it leaves.
 */
function exitWhenOrphaned(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 1000).unref();
}
