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
import {
  buildLifecycle,
  PartialFailure,
  UNKNOWN,
  type Call,
  type Lifecycle,
  type Naming,
  type PropertyChange,
} from "../provider/lifecycle";
import { engineCancelled } from "../provider/runtime/engine";
import { PACKAGE_ROOT, PACKAGE_VERSION } from "../provider/packageName";
import { createRuntime } from "../provider/configure/providerRuntime";
import { kinds, definitionOf } from "../resources/kinds";
import { withProviderClient } from "../resources/lookups/common";
import { PROVIDER_SECRETS } from "../provider/runtime/config";
import { configSources } from "../provider/configure/configSources";
import { checkProviderConfig } from "./config";
import { lookupFor } from "./invokes";
import { listHandler } from "./list";
import { TOKEN_PREFIX } from "../provider/typeTokens";
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

/** The kind a plugin type token names (`svc:index:Vpc` -> `Vpc`); an unknown type is refused with the list. */
function kindOfType(type: string): string {
  const kind = type.startsWith(TOKEN_PREFIX) ? type.slice(TOKEN_PREFIX.length) : "";
  if (!kinds().includes(kind))
    throw new Error(
      `pulumi-svc has no resource type "${type}"; types: ${kinds()
        .map((k) => TOKEN_PREFIX + k)
        .join(", ")}`,
    );
  return kind;
}

/** One provider (one configuration): its runtime, and each kind's lifecycle and output names once asked for. */
class ServedProvider {
  readonly runtime = createRuntime();
  private readonly lifecycles = new Map<string, Lifecycle>();
  private readonly outputNames = new Map<string, string[]>();

  kindOf(req: ForResource): string {
    return kindOfType(typeOfUrn(req.getUrn()));
  }

  lifecycleOf(req: ForResource): Lifecycle {
    return this.lifecycleOfType(typeOfUrn(req.getUrn()));
  }

  lifecycleOfType(type: string): Lifecycle {
    const kind = kindOfType(type);
    let lifecycle = this.lifecycles.get(kind);
    if (!lifecycle) this.lifecycles.set(kind, (lifecycle = buildLifecycle(definitionOf(kind), this.runtime)));
    return lifecycle;
  }

  /** Fields recorded secret for a kind: the definition's secret outputs (the same names in inputs and outputs). */
  secretsOf(req: ForResource): readonly string[] {
    try {
      return definitionOf(this.kindOf(req)).secretOutputs ?? [];
    } catch {
      return [];
    }
  }

  /** Every output a kind declares (from the schema): unknown in a preview until `up` says. */
  outputsOf(req: ForResource): string[] {
    const type = typeOfUrn(req.getUrn());
    if (!this.outputNames.has(type))
      this.outputNames.set(type, Object.keys((JSON.parse(schemaText()) as PackageSchema).resources[type]?.properties ?? {}));
    return this.outputNames.get(type)!;
  }
}

/** The lifecycle's call for a request with a deadline (the engine applies the resource options itself: none to pass). */
const timeoutOf = (req: { getTimeout(): number }): Call => ({ timeoutSeconds: req.getTimeout() });

// The provider's own methods, one function each.

async function getPluginInfo(): Promise<PluginInfo> {
  const info = new PluginInfo();
  info.setVersion(PACKAGE_VERSION);
  return info;
}

async function getSchema(_p: ServedProvider, req: rpc.GetSchemaRequest): Promise<rpc.GetSchemaResponse> {
  if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
  const res = new rpc.GetSchemaResponse();
  res.setSchema(schemaText());
  return res;
}

async function checkConfig(_p: ServedProvider, req: rpc.CheckRequest): Promise<rpc.CheckResponse> {
  const news = fromStruct(req.getNews());
  const res = new rpc.CheckResponse();
  res.setInputs(toStruct(news, PROVIDER_SECRETS));
  res.setFailuresList(checkProviderConfig(news).map(failure));
  return res;
}

async function diffConfig(_p: ServedProvider, req: rpc.DiffRequest): Promise<rpc.DiffResponse> {
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
}

async function configure(p: ServedProvider, req: rpc.ConfigureRequest): Promise<rpc.ConfigureResponse> {
  const args = req.getArgs() ? fromStruct(req.getArgs()) : undefined;
  const variables = Object.fromEntries(req.getVariablesMap().toArray());
  p.runtime.setSources(configSources(args, variables));
  const res = new rpc.ConfigureResponse();
  res.setAcceptsecrets(true);
  res.setSupportspreview(true);
  res.setAcceptresources(false);
  res.setAcceptoutputs(false);
  // The engine then sends what `pulumi:autonaming` asks with each Check (namingOf).
  res.setSupportsAutonamingConfiguration(true);
  return res;
}

async function invoke(p: ServedProvider, req: rpc.InvokeRequest): Promise<rpc.InvokeResponse> {
  const lookup = lookupFor(req.getTok());
  const result = await withProviderClient(
    () => ({ client: p.runtime.client(), config: p.runtime.config() }),
    () => lookup(fromStruct(req.getArgs())),
  );
  const res = new rpc.InvokeResponse();
  // An invoke answers an object: a list comes as { items } (as under pulumi.runtime.setMocks).
  res.setReturn(toStruct(Array.isArray(result) ? { items: result } : (result as Record<string, unknown>)));
  return res;
}

/** The engine is stopping (provider/runtime/engine.ts): no new API call, those in flight finish. */
async function cancel(): Promise<Empty> {
  engineCancelled();
  return new Empty();
}

// The resource methods: each request names one resource and becomes one lifecycle call.

async function check(p: ServedProvider, req: rpc.CheckRequest): Promise<rpc.CheckResponse> {
  const result = await p.lifecycleOf(req).check(fromStruct(req.getOlds()), fromStruct(req.getNews()), { naming: namingOf(req) });
  const res = new rpc.CheckResponse();
  // A member the program made secret stays secret (fromStruct unwrapped it): else the engine
  // would show it, record it in the state's inputs and hand it to policy packs as plain text.
  res.setInputs(toStruct(result.inputs ?? {}, [...p.secretsOf(req), ...secretMembers(req.getNews())]));
  res.setFailuresList((result.failures ?? []).map(failure));
  return res;
}

const MODES = rpc.CheckRequest.AutonamingOptions.Mode;

/**
 * How to name a resource the program leaves unnamed (provider/lifecycle/autoname.ts), from the
 * engine: the logical name, the engine's seed, and what `pulumi:autonaming` asks, sent because
 * Configure says the provider supports it. The engine deletes first itself where the asked name
 * has no random part, so the lifecycle may take every asked name as fresh.
 */
function namingOf(req: rpc.CheckRequest): Naming {
  const logicalName = req.getName() || req.getUrn().split("::").pop() || "resource";
  const asked = req.getAutonaming();
  const naming: Naming = { logicalName, seed: req.getRandomseed_asU8() };
  if (!asked) return naming;
  const mode = asked.getMode();
  return {
    ...naming,
    asked:
      mode === MODES.DISABLE
        ? { mode: "disable" }
        : { mode: mode === MODES.ENFORCE ? "enforce" : "propose", name: asked.getProposedName(), fresh: true },
  };
}

async function diff(p: ServedProvider, req: rpc.DiffRequest): Promise<rpc.DiffResponse> {
  const result = await p
    .lifecycleOf(req)
    .diff(req.getId(), fromStruct(req.getOlds()), fromStruct(req.getNews()), { oldInputs: fromStruct(req.getOldInputs()) });
  const res = new rpc.DiffResponse();
  res.setChanges(result.changes ? rpc.DiffResponse.DiffChanges.DIFF_SOME : rpc.DiffResponse.DiffChanges.DIFF_NONE);
  res.setReplacesList(result.replaces ?? []);
  res.setStablesList(result.stables ?? []);
  // Not only for this diff's replacement: the engine replaces on its own where a replaceOnChanges path matches.
  res.setDeletebeforereplace(result.replaceDeletesFirst);
  res.setDiffsList(Object.keys(result.detailedDiff));
  const detailed = res.getDetaileddiffMap();
  for (const [field, change] of Object.entries(result.detailedDiff)) {
    const propertyDiff = new rpc.PropertyDiff();
    propertyDiff.setKind(propertyDiffKind(change.kind, change.replace));
    propertyDiff.setInputdiff(true);
    detailed.set(field, propertyDiff);
  }
  res.setHasdetaileddiff(true);
  return res;
}

async function create(p: ServedProvider, req: rpc.CreateRequest): Promise<rpc.CreateResponse> {
  const inputs = fromStruct(req.getProperties());
  const res = new rpc.CreateResponse();
  if (req.getPreview()) {
    // What a create will record: the inputs now, every other output once it exists.
    res.setProperties(toStruct({ ...unknowns(p.outputsOf(req)), ...inputs }, p.secretsOf(req)));
    return res;
  }
  const created = await p.lifecycleOf(req).create(inputs, timeoutOf(req));
  res.setId(created.id);
  res.setProperties(toStruct(created.outs ?? {}, p.secretsOf(req)));
  return res;
}

async function read(p: ServedProvider, req: rpc.ReadRequest): Promise<rpc.ReadResponse> {
  const lifecycle = p.lifecycleOf(req);
  const recordedInputs = fromStruct(req.getInputs());
  const recorded = fromStruct(req.getProperties());
  // An import (nothing recorded yet) records the declaration that reproduces the object, which
  // passes check and diffs clean; a refresh records the declared inputs as the API reports them,
  // so drift shows as a diff from the declaration.
  const importing = !Object.keys(recorded).length && !Object.keys(recordedInputs).length;
  const found = await lifecycle.read(req.getId(), recorded, importing ? undefined : recordedInputs);
  const res = new rpc.ReadResponse();
  if (!found.id) return res; // gone: the engine drops it from the stack
  const outs = found.props ?? {};
  res.setId(found.id);
  res.setProperties(toStruct(outs, p.secretsOf(req)));
  // A member the program made secret stays secret, as check keeps it.
  const secrets = [...p.secretsOf(req), ...secretMembers(req.getInputs())];
  res.setInputs(toStruct(importing ? lifecycle.declarationOf(outs) : (found.inputs ?? {}), secrets));
  return res;
}

async function update(p: ServedProvider, req: rpc.UpdateRequest): Promise<rpc.UpdateResponse> {
  const olds = fromStruct(req.getOlds());
  const news = fromStruct(req.getNews());
  const res = new rpc.UpdateResponse();
  if (req.getPreview()) {
    // Stable outputs and the new inputs are known; whatever else the update may move is not.
    const stable = new Set(definitionOf(p.kindOf(req)).stableOutputs ?? []);
    const moving = p.outputsOf(req).filter((k) => !stable.has(k) && !(k in news));
    res.setProperties(toStruct({ ...olds, ...unknowns(moving), ...news }, p.secretsOf(req)));
    return res;
  }
  const updated = await p.lifecycleOf(req).update(req.getId(), olds, news, timeoutOf(req));
  res.setProperties(toStruct(updated.outs ?? {}, p.secretsOf(req)));
  return res;
}

async function deleteResource(p: ServedProvider, req: rpc.DeleteRequest): Promise<Empty> {
  await p.lifecycleOf(req).delete(req.getId(), fromStruct(req.getProperties()), timeoutOf(req));
  return new Empty();
}

/** A method of the table: the provider it serves, one request, its answer. */
type Method = (p: ServedProvider, req: never) => Promise<unknown>;

/** The methods about the provider itself, by gRPC name. */
const PROVIDER_METHODS: Record<string, Method> = {
  getPluginInfo,
  getSchema,
  checkConfig,
  diffConfig,
  configure,
  invoke,
  cancel,
  attach: async () => new Empty(),
  getMapping: async () => new rpc.GetMappingResponse(),
  getMappings: async () => new rpc.GetMappingsResponse(),
};

/** The methods for one resource, by gRPC name: each runs with its progress on the resource's row. */
const RESOURCE_METHODS: Record<string, Method> = { check, diff, create, read, update, delete: deleteResource };

/** What the package does not serve, and why where it is not plain. */
const UNIMPLEMENTED: Record<string, string> = {
  handshake: "Handshake",
  parameterize: "Parameterize",
  construct: "Construct (it has no component resources)",
  call: "Call (it has no methods)",
};

const byName = <T, R>(table: Record<string, T>, serve: (entry: T) => R): Record<string, R> =>
  Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, serve(entry)]));

/** Builds the service implementation for one provider (one configuration): the tables above, served. */
export function providerService(): grpc.UntypedServiceImplementation {
  const p = new ServedProvider();
  const secretsOf = (req: ForResource) => p.secretsOf(req);
  const list = listHandler(p.runtime, (type) => p.lifecycleOfType(type));
  return {
    ...byName(PROVIDER_METHODS, (method) => unary((req) => method(p, req as never))),
    ...byName(RESOURCE_METHODS, (method) =>
      unary((req: ForResource) => forResource(req.getUrn(), () => method(p, req as never)), secretsOf),
    ),
    ...(list ? { list } : {}),
    ...byName(UNIMPLEMENTED, unimplemented),
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
