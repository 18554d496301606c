/**
 * Progress lines of the plugin face go to the engine's Log service with the URN of the resource
 * being worked on, so they sit on that resource's own row of `pulumi up` (the dynamic face can
 * only write to stderr, which lands under the stack). Heartbeats are ephemeral: the row's status
 * column shows the latest one, and it leaves no line behind. What is shown is decided once, in
 * provider/runtime/progress.ts (`shown`); this module only routes.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { setProgressSink, shown, verboseFrom, type ProgressKind } from "../provider/runtime/progress";

/**
 * Made at the first call, not when the module loads: the release executable starts from a V8
 * snapshot of its loaded modules (scripts/release/plugin.ts), and Node does not vouch for an
 * AsyncLocalStorage carried through one.
 */
let resourceScope: AsyncLocalStorage<string> | undefined;

/** Runs one provider call for a resource: progress lines written inside it carry its URN. */
export function forResource<T>(urn: string, fn: () => Promise<T>): Promise<T> {
  return (resourceScope ??= new AsyncLocalStorage<string>()).run(urn, fn);
}

const SEVERITY: Record<ProgressKind, LogSeverity> = { notice: LogSeverity.INFO, heartbeat: LogSeverity.INFO, detail: LogSeverity.INFO };

/** Routes every progress line of this process to the engine at `address`. */
export function logToEngine(address: string): void {
  const engine = new EngineClient(address, grpc.credentials.createInsecure());
  const verbose = verboseFrom(process.env);
  setProgressSink((line, kind) => {
    if (!shown(kind, verbose)) return;
    const request = new LogRequest();
    request.setSeverity(SEVERITY[kind]);
    // The line keeps its label: it names the API object (`Disk "data"`, an id), the row only the Pulumi name.
    request.setMessage(line);
    request.setUrn(resourceScope?.getStore() ?? "");
    request.setEphemeral(kind === "heartbeat");
    engine.log(request, () => {
      // A lost progress line is not worth failing an operation for.
    });
  });
}
