/**
 * The provider protocol's List (pulumi 3.233 and newer; `pulumi do svc:index:<Kind> list` on the
 * CLIs that have `pulumi do`): the objects of one kind a workspace holds, as the kind's `list`
 * finds them (the same listing svc-import reads). The query may name the workspace
 * (`workspaceId`, the kind's `listInputs` in schema.json); otherwise the provider's default one.
 * Every object comes in one page: the kinds' lists follow the API's paging themselves.
 *
 * SDKs older than the List message (the floor's @pulumi/pulumi 3.163) have no ListResponse: the
 * handler is not offered there, and those engines never call it.
 */
import * as grpc from "@grpc/grpc-js";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import type { Lifecycle } from "../provider/lifecycle";
import type { ProviderRuntime } from "../provider/lifecycle";
import { fromStruct } from "./marshal";

type ListCall = grpc.ServerWritableStream<rpc.ListRequest, rpc.ListResponse>;

/** The handler, or undefined where the SDK's protocol has no List. */
export function listHandler(runtime: ProviderRuntime, lifecycleOf: (type: string) => Lifecycle): ((call: ListCall) => void) | undefined {
  if (typeof (rpc as { ListResponse?: unknown }).ListResponse !== "function") return undefined;
  return (call) => {
    list(runtime, lifecycleOf, call).then(
      () => call.end(),
      (err: unknown) =>
        call.destroy(Object.assign(new Error(err instanceof Error ? err.message : String(err)), { code: grpc.status.UNKNOWN })),
    );
  };
}

async function list(runtime: ProviderRuntime, lifecycleOf: (type: string) => Lifecycle, call: ListCall): Promise<void> {
  const req = call.request;
  const lifecycle = lifecycleOf(req.getToken());
  if (!lifecycle.list) throw new Error(`${req.getToken()} cannot be listed: a workspace holds no objects of that kind to list`);
  const query = fromStruct(req.getQuery());
  const workspaceId = typeof query.workspaceId === "string" && query.workspaceId ? query.workspaceId : runtime.defaultWorkspace();
  if (!workspaceId) throw new Error("name the workspace to list: the query's workspaceId, or svc:workspaceId / SVC_WORKSPACE_ID");
  const limit = req.getLimit();
  const found = (await lifecycle.list(workspaceId)).filter((o) => !o.leftOut);
  for (const object of limit > 0 ? found.slice(0, limit) : found) {
    const result = new rpc.ListResponse.Result();
    result.setId(object.id);
    if (object.name) result.setName(object.name);
    call.write(new rpc.ListResponse().setResult(result));
  }
}
