/**
 * Entry point of `pulumi-resource-svc`: the engine starts it with its own address as the first
 * argument and reads the port this process listens on from the first line of stdout.
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { logToEngine } from "./log";
import { providerService } from "./server";

export function main(argv: string[] = process.argv.slice(2)): void {
  const engine = argv.find((a) => !a.startsWith("-"));
  if (engine) logToEngine(engine);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, providerService());
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      process.stderr.write(`pulumi-resource-svc: cannot listen: ${err.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
  });
  exitWhenOrphaned();
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
