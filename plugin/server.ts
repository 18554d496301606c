/**
 * The plugin face: the provider protocol (pulumirpc.ResourceProvider) served over the same definitions
 * and lifecycle as the dynamic face. Each method translates one request into one lifecycle call
 * and its answer back; nothing here knows any one resource.
 *
 * What this face gives that the dynamic host cannot (pulumi 3.163): provider configuration per
 * provider resource (explicit providers), `pulumi import` and the `import` option (Read with no
 * recorded properties), a detailed diff per property, previews of creates and updates with the
 * outputs already known, `customTimeouts` (the request's `timeout`), progress on the resource's
 * own row (plugin/log.ts) and invokes for the lookups.
 *
 * The SDK's own provider server (`@pulumi/pulumi/provider`, 3.163) discards Configure's
 * configuration, forwards no detailed diff and drops timeouts, so the service is served here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { buildLifecycle, PartialFailure, UNKNOWN, type Lifecycle, type PropertyChange } from "../provider/lifecycle";
import { engineCancelled } from "../provider/runtime/engine";
import { PACKAGE_ROOT, PACKAGE_VERSION } from "../provider/packageName";
import { createRuntime } from "../provider/runtime";
import { kinds, definitionOf } from "../resources/kinds";
import { withProviderClient } from "../resources/lookups/common";
import { PROVIDER_SECRETS } from "../provider/runtime/config";
import { configSources } from "../provider/runtime/configSources";
import { checkProviderConfig } from "./config";
import { lookupFor } from "./invokes";
import { listHandler } from "./list";
import { TOKEN_PREFIX } from "../common/typeTokens";
import { forResource } from "./log";
import { fromStruct, secretMembers, toStruct } from "./marshal";

interface PackageSchema {
  resources: Record<string, { properties?: Record<string, unknown>; inputProperties?: Record<string, unknown> }>;
}

/** The committed schema (npm run generate): served by GetSchema, and the source of each kind's output names. */
const schemaText = (): string => fs.readFileSync(path.join(PACKAGE_ROOT, "schema.json"), "utf8");

/** The resource type of a URN (`urn:pulumi:dev::proj::parent$svc:index:Vpc::web` -> `svc:index:Vpc`). */
export function typeOfUrn(urn: string): string {
  const type = urn.split("::")[2] ?? "";
  return type.slice(type.lastIndexOf("$") + 1);
}

type Callback<T> = grpc.sendUnaryData<T>;
type Handler<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void;

/** An error as the engine shows it; a create or update that failed midway keeps its resource (ErrorResourceInitFailed). */
function toServiceError(err: unknown, secrets: readonly string[] = []): grpc.ServiceError {
  const message = err instanceof Error ? err.message : String(err);
  const metadata = new grpc.Metadata();
  if (err instanceof PartialFailure) {
    const detail = new rpc.ErrorResourceInitFailed();
    detail.setId(err.id);
    detail.setProperties(toStruct(err.properties, secrets));
    detail.setReasonsList(err.reasons);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code: grpc.status.UNKNOWN, details: message, metadata });
}

/** One handler: the answer, or the error as the engine takes it. */
function unary<Req, Res>(answer: (req: Req) => Promise<Res>, secretsOf: (req: Req) => readonly string[] = () => []): Handler<Req, Res> {
  return (call, callback) => {
    answer(call.request).then(
      (res) => callback(null, res),
      (err) => callback(toServiceError(err, secretsOf(call.request))),
    );
  };
}

const unimplemented = (what: string) => (_call: unknown, callback: Callback<never>) =>
  callback({
    code: grpc.status.UNIMPLEMENTED,
    details: `pulumi-svc does not implement ${what}`,
    name: "",
    message: "",
    metadata: new grpc.Metadata(),
  });

/** A request that names a resource (all CRUD requests do). */
interface ForResource {
  getUrn(): string;
}

/** Builds the service implementation for one provider (one configuration). */
export function providerService(): grpc.UntypedServiceImplementation {
  const runtime = createRuntime();
  const outputNames = new Map<string, string[]>();
  const lifecycles = new Map<string, Lifecycle>();

  const schema = (): PackageSchema => JSON.parse(schemaText()) as PackageSchema;
  const kindOf = (req: ForResource) => kindOfType(typeOfUrn(req.getUrn()));
  const kindOfType = (type: string) => {
    const kind = type.startsWith(TOKEN_PREFIX) ? type.slice(TOKEN_PREFIX.length) : "";
    if (!kinds().includes(kind))
      throw new Error(
        `pulumi-svc has no resource type "${type}"; types: ${kinds()
          .map((k) => TOKEN_PREFIX + k)
          .join(", ")}`,
      );
    return kind;
  };
  const lifecycleOf = (req: ForResource): Lifecycle => lifecycleOfType(typeOfUrn(req.getUrn()));
  const lifecycleOfType = (type: string): Lifecycle => {
    const kind = kindOfType(type);
    let lifecycle = lifecycles.get(kind);
    if (!lifecycle) lifecycles.set(kind, (lifecycle = buildLifecycle(definitionOf(kind), runtime)));
    return lifecycle;
  };
  /** Fields recorded secret for a kind: the definition's secret outputs (the same names in inputs and outputs). */
  const secretsOf = (req: ForResource): readonly string[] => {
    try {
      return definitionOf(kindOf(req)).secretOutputs ?? [];
    } catch {
      return [];
    }
  };
  /** Every output a kind declares (from the schema): unknown in a preview until `up` says. */
  const outputsOf = (req: ForResource): string[] => {
    const type = typeOfUrn(req.getUrn());
    if (!outputNames.has(type)) outputNames.set(type, Object.keys(schema().resources[type]?.properties ?? {}));
    return outputNames.get(type)!;
  };
  /** Runs one call for a resource: its progress lines land on the resource's row. */
  const forCall =
    <Req extends ForResource, Res>(answer: (req: Req) => Promise<Res>): Handler<Req, Res> =>
    (call, callback) =>
      unary((req: Req) => forResource(req.getUrn(), () => answer(req)), secretsOf)(call, callback);
  const timeoutOf = (req: { getTimeout(): number }) => ({ timeoutSeconds: req.getTimeout() });
  const list = listHandler(runtime, lifecycleOfType);

  return {
    getPluginInfo: unary(async () => {
      const info = new PluginInfo();
      info.setVersion(PACKAGE_VERSION);
      return info;
    }),
    getSchema: unary(async (req: rpc.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      const res = new rpc.GetSchemaResponse();
      res.setSchema(schemaText());
      return res;
    }),
    checkConfig: unary(async (req: rpc.CheckRequest) => {
      const news = fromStruct(req.getNews());
      const res = new rpc.CheckResponse();
      res.setInputs(toStruct(news, PROVIDER_SECRETS));
      res.setFailuresList(checkProviderConfig(news).map(failure));
      return res;
    }),
    diffConfig: unary(async (req: rpc.DiffRequest) => {
      const olds = fromStruct(req.getOldInputs() ?? req.getOlds());
      const news = fromStruct(req.getNews());
      const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
      );
      const res = new rpc.DiffResponse();
      // A new address, token or workspace changes where later operations go; the resources stay.
      res.setChanges(changed.length ? rpc.DiffResponse.DiffChanges.DIFF_SOME : rpc.DiffResponse.DiffChanges.DIFF_NONE);
      res.setDiffsList(changed);
      return res;
    }),
    configure: unary(async (req: rpc.ConfigureRequest) => {
      const args = req.getArgs() ? fromStruct(req.getArgs()) : undefined;
      const variables = Object.fromEntries(req.getVariablesMap().toArray());
      runtime.setSources(configSources(args, variables));
      const res = new rpc.ConfigureResponse();
      res.setAcceptsecrets(true);
      res.setSupportspreview(true);
      res.setAcceptresources(false);
      res.setAcceptoutputs(false);
      return res;
    }),
    invoke: unary(async (req: rpc.InvokeRequest) => {
      const lookup = lookupFor(req.getTok());
      const result = await withProviderClient(
        () => ({ client: runtime.client(), config: runtime.config() }),
        () => lookup(fromStruct(req.getArgs())),
      );
      const res = new rpc.InvokeResponse();
      // An invoke answers an object: a list comes as { items } (as under pulumi.runtime.setMocks).
      res.setReturn(toStruct(Array.isArray(result) ? { items: result } : (result as Record<string, unknown>)));
      return res;
    }),
    check: forCall(async (req: rpc.CheckRequest) => {
      const result = await lifecycleOf(req).check(fromStruct(req.getOlds()), fromStruct(req.getNews()));
      const res = new rpc.CheckResponse();
      // A member the program made secret stays secret (fromStruct unwrapped it): else the engine
      // would show it, record it in the state's inputs and hand it to policy packs as plain text.
      res.setInputs(toStruct(result.inputs ?? {}, [...secretsOf(req), ...secretMembers(req.getNews())]));
      res.setFailuresList((result.failures ?? []).map(failure));
      return res;
    }),
    diff: forCall(async (req: rpc.DiffRequest) => {
      const result = await lifecycleOf(req).diff(
        req.getId(),
        fromStruct(req.getOlds()),
        fromStruct(req.getNews()),
        fromStruct(req.getOldInputs()),
      );
      const res = new rpc.DiffResponse();
      res.setChanges(result.changes ? rpc.DiffResponse.DiffChanges.DIFF_SOME : rpc.DiffResponse.DiffChanges.DIFF_NONE);
      res.setReplacesList(result.replaces ?? []);
      res.setStablesList(result.stables ?? []);
      // Not only for this diff's replacement: the engine replaces on its own where a replaceOnChanges path matches.
      res.setDeletebeforereplace(result.replaceDeletesFirst);
      res.setDiffsList(Object.keys(result.detailedDiff));
      const detailed = res.getDetaileddiffMap();
      for (const [field, change] of Object.entries(result.detailedDiff)) {
        const diff = new rpc.PropertyDiff();
        diff.setKind(propertyDiffKind(change.kind, change.replace));
        diff.setInputdiff(true);
        detailed.set(field, diff);
      }
      res.setHasdetaileddiff(true);
      return res;
    }),
    create: forCall(async (req: rpc.CreateRequest) => {
      const inputs = fromStruct(req.getProperties());
      const res = new rpc.CreateResponse();
      if (req.getPreview()) {
        // What a create will record: the inputs now, every other output once it exists.
        res.setProperties(toStruct({ ...unknowns(outputsOf(req)), ...inputs }, secretsOf(req)));
        return res;
      }
      const created = await lifecycleOf(req).create(inputs, timeoutOf(req));
      res.setId(created.id);
      res.setProperties(toStruct(created.outs ?? {}, secretsOf(req)));
      return res;
    }),
    read: forCall(async (req: rpc.ReadRequest) => {
      const lifecycle = lifecycleOf(req);
      const recordedInputs = fromStruct(req.getInputs());
      const recorded = fromStruct(req.getProperties());
      const read = await lifecycle.read(req.getId(), recorded);
      const res = new rpc.ReadResponse();
      if (!read.id) return res; // gone: the engine drops it from the stack
      const outs = read.props ?? {};
      res.setId(read.id);
      res.setProperties(toStruct(outs, secretsOf(req)));
      // An import (nothing recorded yet) records the declaration that reproduces the object, which
      // passes check and diffs clean; a refresh records inputs as the API reports them, so drift
      // shows as a diff from the declaration.
      const importing = !Object.keys(recorded).length && !Object.keys(recordedInputs).length;
      res.setInputs(
        toStruct(importing ? lifecycle.declarationOf(outs) : { ...recordedInputs, ...lifecycle.inputsOf(outs) }, secretsOf(req)),
      );
      return res;
    }),
    ...(list ? { list } : {}),
    update: forCall(async (req: rpc.UpdateRequest) => {
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const res = new rpc.UpdateResponse();
      if (req.getPreview()) {
        // Stable outputs and the new inputs are known; whatever else the update may move is not.
        const stable = new Set(definitionOf(kindOf(req)).stableOutputs ?? []);
        const moving = outputsOf(req).filter((k) => !stable.has(k) && !(k in news));
        res.setProperties(toStruct({ ...olds, ...unknowns(moving), ...news }, secretsOf(req)));
        return res;
      }
      const updated = await lifecycleOf(req).update(req.getId(), olds, news, timeoutOf(req));
      res.setProperties(toStruct(updated.outs ?? {}, secretsOf(req)));
      return res;
    }),
    delete: forCall(async (req: rpc.DeleteRequest) => {
      await lifecycleOf(req).delete(req.getId(), fromStruct(req.getProperties()), timeoutOf(req));
      return new Empty();
    }),
    // The engine is stopping (provider/runtime/engine.ts): no new API call, those in flight finish.
    cancel: unary(async () => {
      engineCancelled();
      return new Empty();
    }),
    attach: unary(async () => new Empty()),
    getMapping: unary(async () => new rpc.GetMappingResponse()),
    getMappings: unary(async () => new rpc.GetMappingsResponse()),
    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    construct: unimplemented("Construct (it has no component resources)"),
    call: unimplemented("Call (it has no methods)"),
  };
}

const unknowns = (names: string[]) => Object.fromEntries(names.map((n) => [n, UNKNOWN]));

function failure(f: { property: string; reason: string }): rpc.CheckFailure {
  const out = new rpc.CheckFailure();
  out.setProperty(f.property);
  out.setReason(f.reason);
  return out;
}

const KINDS = rpc.PropertyDiff.Kind;
const PROPERTY_DIFF = {
  add: [KINDS.ADD, KINDS.ADD_REPLACE],
  delete: [KINDS.DELETE, KINDS.DELETE_REPLACE],
  update: [KINDS.UPDATE, KINDS.UPDATE_REPLACE],
} as const;

function propertyDiffKind(kind: PropertyChange["kind"], replace: boolean): rpc.PropertyDiff.Kind {
  return PROPERTY_DIFF[kind][replace ? 1 : 0];
}
