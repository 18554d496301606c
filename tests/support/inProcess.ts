/**
 * The in-process tier: both faces served inside the test process against the emulator, called as
 * the engine calls them, in milliseconds instead of a `pulumi` run's seconds (issue 45). A kind's
 * permutations (refusals at preview, each field's change effect, update steps, read and import
 * round trips, partial failures) are proven here, once per face, by the same case; the engine
 * tier (tests/e2e) keeps what only the engine proves (tests/README.md, the proof map).
 *
 * - The plugin face: `plugin/server.ts`'s service on a loopback port, called through the real
 *   provider protocol (grpc-js's ResourceProviderClient, Structs with the engine's secret and
 *   unknown markers), as pulumi-go-provider's `integration` package serves a provider.
 * - The dynamic face: the object a resource's `__provider` text names (the dynamic entry's
 *   `shim`), configured and called as the SDK's dynamic-provider host calls it
 *   (`@pulumi/pulumi/cmd/dynamic-provider`): the whole stack config through the host's Config,
 *   `__provider` in every request and put back into every answer, plain values (the host accepts
 *   no secrets), no preview of a create or update (the host does not support previews), no
 *   detailed diff and no timeouts (the host forwards neither).
 *
 * Both answer in one shape (`Answer` types below), so a case reads the same on each face; where
 * a face's answer differs by design (a detailed diff, a preview), `face.name` says which.
 */
import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { ResourceProviderClient, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { shim } from "../../dynamic/entry";
import { providerText, PROVIDER_KEY } from "../../provider/dynamic/providerText";
import { NAMING_KEY } from "../../provider/dynamic/carriedOptions";
import type { Asked, Naming } from "../../provider/lifecycle/autoname";
import { providerService } from "../../plugin/server";
import * as lookups from "../../resources/lookups";
import { withProviderClient } from "../../resources/lookups/common";
import { SvcClient } from "../../provider/client/client";
import { resolveConfig } from "../../provider/runtime/config";

const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A value as the engine sends a secret to a provider that accepts secrets (the plugin). */
export const secret = (value: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG, value });
const isSecret = (v: unknown): v is { value: unknown } =>
  !!v && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG;

/** A value with every secret envelope opened, and the paths of those that were secret. */
export function opened(value: unknown, at = "", found: string[] = []): { value: unknown; secrets: string[] } {
  if (isSecret(value)) {
    found.push(at);
    return { value: opened(value.value, at, found).value, secrets: found };
  }
  if (Array.isArray(value)) return { value: value.map((v, i) => opened(v, `${at}[${i}]`, found).value), secrets: found };
  if (value && typeof value === "object")
    return {
      value: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, opened(v, at ? `${at}.${k}` : k, found).value])),
      secrets: found,
    };
  return { value, secrets: found };
}

export type Props = Record<string, unknown>;
interface CheckAnswer {
  inputs: Props;
  failures: Array<{ property: string; reason: string }>;
}
export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The plugin's detailed diff (property -> kind); the dynamic host forwards none. */
  detailed?: Record<string, string>;
}
interface CreateAnswer {
  id: string;
  outs: Props;
}
interface ReadAnswer {
  id: string;
  outs: Props;
  /** What the engine records as inputs after the read (the plugin's answer; the dynamic host records none). */
  inputs?: Props;
}
/** A failed call as the engine receives it: the message, and for a create or update that went half-way, the object kept. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly kept?: { id: string; properties: Props; reasons: string[] },
  ) {
    super(message);
  }
}

type FaceName = "dynamic" | "plugin";
export const FACES: FaceName[] = ["dynamic", "plugin"];

/** One face of the provider, configured for one workspace: the engine's calls, by kind. */
export interface Face {
  name: FaceName;
  /** `naming`: what the engine (plugin) or the class (dynamic: `__naming`) tells check of the resource's name. */
  check(kind: string, news: Props, olds?: Props, naming?: Naming): Promise<CheckAnswer>;
  diff(kind: string, id: string, olds: Props, news: Props, oldInputs?: Props): Promise<DiffAnswer>;
  /** `preview`: a create the engine only previews (the plugin answers it; the dynamic host is never asked). */
  create(kind: string, inputs: Props, opts?: { preview?: boolean; timeoutSeconds?: number }): Promise<CreateAnswer>;
  read(kind: string, id: string, outs: Props, inputs?: Props): Promise<ReadAnswer>;
  update(
    kind: string,
    id: string,
    olds: Props,
    news: Props,
    opts?: { preview?: boolean; timeoutSeconds?: number; oldInputs?: Props },
  ): Promise<Props>;
  delete(kind: string, id: string, outs: Props): Promise<void>;
  /**
   * A lookup by name (`getNodes`) as each face's users reach it: the plugin's invoke of
   * `svc:index:<name>`, answered as the engine receives it (a list as `{ items }`); the dynamic
   * face serves no invokes, so there it is the plain lookup a program calls (resources/lookups),
   * with the face's settings for the program's config.
   */
  invoke(name: string, args?: Props): Promise<unknown>;
  stop(): Promise<void>;
}

export interface Settings {
  baseUrl: string;
  token: string;
  workspaceId?: string;
}

const urnOf = (kind: string, name = "r") => `urn:pulumi:test::proj::svc:index:${kind}::${name}`;
const struct = (value: Props) => Struct.fromJavaScript(value as never);
const plainOf = (s: Struct | undefined): Props => (s ? (s.toJavaScript() as Props) : {});

const MODES = rpc.CheckRequest.AutonamingOptions.Mode;

/** What `pulumi:autonaming` asks, as the engine sends it with Check. */
function autonamingOptions(asked: Asked): rpc.CheckRequest.AutonamingOptions {
  const options = new rpc.CheckRequest.AutonamingOptions();
  if (asked.mode === "disable") return options.setMode(MODES.DISABLE);
  return options.setMode(asked.mode === "enforce" ? MODES.ENFORCE : MODES.PROPOSE).setProposedName(asked.name);
}

/** Calls one unary method of a grpc-js client as a promise; a failure keeps the object an ErrorResourceInitFailed names. */
function unary<Req, Res>(client: grpc.Client, method: string, req: Req): Promise<Res> {
  const fn = (client as unknown as Record<string, (r: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => void>)[method].bind(
    client,
  );
  return new Promise((resolve, reject) =>
    fn(req, (err, res) => (err ? reject(new CallError(err.details || err.message, keptIn(err))) : resolve(res))),
  );
}

/** The object a failed create or update kept, from the error's status details (as the engine reads them). */
function keptIn(err: grpc.ServiceError): CallError["kept"] {
  const bin = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (!bin) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the status proto only when an error has details
  const { Status } = require("@pulumi/pulumi/proto/status_pb") as typeof import("@pulumi/pulumi/proto/status_pb");
  for (const any of Status.deserializeBinary(bin as Uint8Array).getDetailsList()) {
    const detail = rpc.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return { id: detail.getId(), properties: plainOf(detail.getProperties()), reasons: detail.getReasonsList() };
  }
  return undefined;
}

const DIFF_KINDS = Object.fromEntries(Object.entries(rpc.PropertyDiff.Kind).map(([name, n]) => [n, name.toLowerCase()]));

/** The plugin face: the provider service on a loopback port, Configure'd with `settings`. */
export async function pluginFace(settings: Settings): Promise<Face> {
  const server = new grpc.Server();
  server.addService(ResourceProviderService, providerService());
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <Res>(method: string, req: unknown) => unary<unknown, Res>(client, method, req);

  const configure = new rpc.ConfigureRequest();
  configure.setArgs(struct({ ...settings, token: secret(settings.token) }));
  configure.setAcceptsecrets(true);
  configure.setAcceptresources(true);
  await call("configure", configure);

  return {
    name: "plugin",
    async check(kind, news, olds = {}, naming) {
      const req = new rpc.CheckRequest();
      req.setUrn(urnOf(kind, naming?.logicalName));
      req.setName(naming?.logicalName ?? "r");
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      req.setRandomseed(naming?.seed ?? Buffer.alloc(32, 7));
      const asked = naming?.asked;
      if (asked) req.setAutonaming(autonamingOptions(asked));
      const res = await call<rpc.CheckResponse>("check", req);
      return {
        inputs: plainOf(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(kind, id, olds, news, oldInputs) {
      const req = new rpc.DiffRequest();
      req.setUrn(urnOf(kind));
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      if (oldInputs) req.setOldInputs(struct(oldInputs));
      const res = await call<rpc.DiffResponse>("diff", req);
      const detailed: Record<string, string> = {};
      res.getDetaileddiffMap().forEach((d, key) => (detailed[key] = DIFF_KINDS[d.getKind()]));
      return {
        changes: res.getChanges() === rpc.DiffResponse.DiffChanges.DIFF_SOME,
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
        detailed,
      };
    },
    async create(kind, inputs, opts = {}) {
      const req = new rpc.CreateRequest();
      req.setUrn(urnOf(kind));
      req.setProperties(struct(inputs));
      req.setPreview(!!opts.preview);
      req.setTimeout(opts.timeoutSeconds ?? 0);
      const res = await call<rpc.CreateResponse>("create", req);
      return { id: res.getId(), outs: plainOf(res.getProperties()) };
    },
    async read(kind, id, outs, inputs = {}) {
      const req = new rpc.ReadRequest();
      req.setUrn(urnOf(kind));
      req.setId(id);
      req.setProperties(struct(outs));
      req.setInputs(struct(inputs));
      const res = await call<rpc.ReadResponse>("read", req);
      return { id: res.getId(), outs: plainOf(res.getProperties()), inputs: plainOf(res.getInputs()) };
    },
    async update(kind, id, olds, news, opts = {}) {
      const req = new rpc.UpdateRequest();
      req.setUrn(urnOf(kind));
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      if (opts.oldInputs) req.setOldInputs(struct(opts.oldInputs));
      req.setPreview(!!opts.preview);
      req.setTimeout(opts.timeoutSeconds ?? 0);
      const res = await call<rpc.UpdateResponse>("update", req);
      return plainOf(res.getProperties());
    },
    async delete(kind, id, outs) {
      const req = new rpc.DeleteRequest();
      req.setUrn(urnOf(kind));
      req.setId(id);
      req.setProperties(struct(outs));
      await call("delete", req);
    },
    async invoke(name, args = {}) {
      const req = new rpc.InvokeRequest();
      req.setTok(`svc:index:${name}`);
      req.setArgs(struct(args));
      const res = await call<rpc.InvokeResponse>("invoke", req);
      return plainOf(res.getReturn());
    },
    async stop() {
      client.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

/**
 * The dynamic face: a kind's provider object as the SDK's dynamic-provider host makes and calls
 * it. One host process serves one provider configuration, so the settings are those of the
 * process (a jest file is one process): configured once per kind, as the host does per `__provider` text.
 */
export async function dynamicFace(settings: Settings): Promise<Face> {
  const stackConfig = {
    "svc:baseUrl": settings.baseUrl,
    "svc:token": settings.token,
    ...(settings.workspaceId ? { "svc:workspaceId": settings.workspaceId } : {}),
  };
  const providers = new Map<string, Record<string, (...args: unknown[]) => Promise<Record<string, unknown>>>>();
  const providerOf = async (kind: string) => {
    let provider = providers.get(kind);
    if (!provider) {
      provider = shim(kind) as never;
      await (provider as { configure(req: unknown): Promise<void> | void }).configure({ config: new Config(stackConfig, "proj") });
      providers.set(kind, provider!);
    }
    return provider!;
  };
  /**
   * The client a program's lookups make from the same stack config (resources/lookups/common.ts),
   * made at the first lookup as there: a configuration no lookup could use still reaches check.
   */
  let program: { client: SvcClient; config: ReturnType<typeof resolveConfig> } | undefined;
  const programClient = () => {
    if (!program) {
      const config = resolveConfig({ get: (key) => (stackConfig as Record<string, string | undefined>)[key], env: {} });
      program = { client: new SvcClient(config), config };
    }
    return program;
  };
  const text = (kind: string) => providerText(kind);
  const withText = (kind: string, props: Props) => ({ ...props, [PROVIDER_KEY]: text(kind) });
  /** The host's answer to a failed create or update: its message, and the object an error with an id kept. */
  const asCallError = (err: unknown) => {
    const e = err as Error & { id?: string; properties?: Props; reasons?: string[] };
    return new CallError(e.message, e.id ? { id: e.id, properties: e.properties ?? {}, reasons: e.reasons ?? [] } : undefined);
  };

  return {
    name: "dynamic",
    async check(kind, news, olds = {}, naming) {
      const provider = await providerOf(kind);
      // A class carries no seed: the engine's is not the program's to know.
      const carried = naming ? { ...news, [NAMING_KEY]: { ...naming, seed: undefined } } : news;
      const result = (await provider.check(olds, withText(kind, carried))) as Partial<CheckAnswer>;
      return { inputs: { ...(result.inputs ?? news), [PROVIDER_KEY]: text(kind) }, failures: result.failures ?? [] };
    },
    async diff(kind, id, olds, news) {
      const result = (await (await providerOf(kind)).diff(id, withText(kind, olds), withText(kind, news))) as {
        changes?: boolean;
        replaces?: string[];
        deleteBeforeReplace?: boolean;
      };
      return { changes: result.changes === true, replaces: result.replaces ?? [], deleteBeforeReplace: !!result.deleteBeforeReplace };
    },
    async create(kind, inputs, opts = {}) {
      if (opts.preview) throw new Error("the dynamic-provider host supports no preview: the engine never asks it to preview a create");
      try {
        const result = (await (await providerOf(kind)).create(withText(kind, inputs))) as { id: string; outs?: Props };
        return { id: result.id, outs: { ...(result.outs ?? {}), [PROVIDER_KEY]: text(kind) } };
      } catch (err) {
        throw asCallError(err);
      }
    },
    async read(kind, id, outs) {
      const result = (await (await providerOf(kind)).read(id, withText(kind, outs))) as { id?: string; props?: Props; inputs?: Props };
      return {
        id: result.id ?? "",
        outs: { ...(result.props ?? {}), [PROVIDER_KEY]: text(kind) },
        ...(result.inputs ? { inputs: { ...result.inputs, [PROVIDER_KEY]: text(kind) } } : {}),
      };
    },
    async update(kind, id, olds, news, opts = {}) {
      if (opts.preview) throw new Error("the dynamic-provider host supports no preview: the engine never asks it to preview an update");
      try {
        const result = ((await (await providerOf(kind)).update(id, withText(kind, olds), withText(kind, news))) ?? {}) as { outs?: Props };
        return { ...(result.outs ?? {}), [PROVIDER_KEY]: text(kind) };
      } catch (err) {
        throw asCallError(err);
      }
    },
    async delete(kind, id, outs) {
      await (await providerOf(kind)).delete(id, withText(kind, outs));
    },
    async invoke(name, args = {}) {
      const lookup = (lookups as unknown as Record<string, (args: Props) => Promise<unknown>>)[name];
      return withProviderClient(programClient, () => lookup(args));
    },
    async stop() {},
  };
}

/** A request the emulator logged (`/_emulator/requests`). */
export interface Logged {
  seq: number;
  time: string;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** The sequence number of the emulator's last logged request: a case's "since". */
export const lastSeqOf = async (emu: TestEmulator): Promise<number> =>
  ((await emu.control.get("/_emulator/requests?since=999999999")).body as { lastSeq: number }).lastSeq;

/** The requests the emulator logged after `since`. */
export const requestsSince = async (emu: TestEmulator, since: number): Promise<Logged[]> =>
  ((await emu.control.get(`/_emulator/requests?since=${since}`)).body as { requests: Logged[] }).requests;

/** What a case wrote through the API: its mutating /v1 requests after `since` (the emulator's controls are not). */
export const mutationsSince = async (emu: TestEmulator, since: number): Promise<Logged[]> =>
  (await requestsSince(emu, since)).filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));

/** An emulator and one face configured for its workspace: what a test file of the tier starts. */
export interface InProcess {
  emu: TestEmulator;
  face: Face;
  stop(): Promise<void>;
}

/**
 * The face with every read checked, whatever the kind and the case: a refresh records no input the
 * program did not declare (provider/lifecycle/read.ts), so a preview after it names only drift.
 * A read with nothing recorded (an import) records a declaration instead, and is not checked.
 */
function declaredOnly(face: Face): Face {
  const read = face.read;
  face.read = async (kind, id, outs, inputs) => {
    const answer = await read(kind, id, outs, inputs);
    const declared = Object.keys(inputs ?? {});
    const extra = Object.keys(answer.inputs ?? {}).filter((k) => k !== PROVIDER_KEY && !declared.includes(k));
    if (declared.length && answer.id && extra.length)
      throw new Error(`${kind} ${id}: a read recorded inputs the program did not declare: ${extra.join(", ")}`);
    return answer;
  };
  return face;
}

async function startInProcess(name: FaceName, options: { workflowMs?: number; staff?: boolean } = {}): Promise<InProcess> {
  // A seed per face: both faces' providers live in this one process, and a resource's module state
  // (the addresses a FloatingIp create claimed after a lost answer) keys on ids, which one seed
  // would make the same in both emulators. A provider process serves one stack, never two.
  // Workflows end at once unless a case says otherwise: the provider polls first at once, then
  // after 250 ms (provider/client/workflows.ts), so 20 ms workflows cost a 250 ms wait each, about
  // half of this tier's time (measured: vpc and images, 28 s -> 14 s).
  const emu = await startTestEmulator({ workflowMs: options.workflowMs ?? 0, seed: name === "plugin" ? 4243 : 4242 });
  const settings = { baseUrl: emu.emu.url, token: options.staff ? emu.emu.staffToken : emu.emu.token, workspaceId: emu.workspaceId };
  const face = declaredOnly(await (name === "plugin" ? pluginFace : dynamicFace)(settings));
  return {
    emu,
    face,
    async stop() {
      await face.stop();
      await emu.stop();
    },
  };
}

/**
 * What the engine does for one resource's `pulumi up` (check, then diff against the recorded
 * state, then create, update or replace), in the order it does it: the tier's stand-in for a
 * one-resource deployment, so a case can say "up with these inputs" and read the recorded state.
 * Replacement follows the diff's deleteBeforeReplace as the engine does.
 */
export interface Recorded {
  id: string;
  inputs: Props;
  outs: Props;
}
export type Step = "create" | "update" | "replace" | "same";

export async function up(
  face: Face,
  kind: string,
  declared: Props,
  recorded?: Recorded,
  naming?: Naming,
): Promise<{ step: Step; now: Recorded; diff?: DiffAnswer }> {
  // The engine's seed for a resource is new in each run, the same for every check of it in one.
  const seeded = naming && { seed: randomBytes(32), ...naming };
  const checkedFor = async (olds?: Props) => {
    const checked = await face.check(kind, declared, olds, seeded);
    if (checked.failures.length) throw new CallError(checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; "));
    return opened(checked.inputs).value as Props;
  };
  const inputs = await checkedFor(recorded?.inputs);
  if (!recorded) {
    const made = await face.create(kind, inputs);
    return { step: "create", now: { id: made.id, inputs, outs: made.outs } };
  }
  const diff = await face.diff(kind, recorded.id, recorded.outs, inputs, recorded.inputs);
  if (!diff.changes) return { step: "same", now: recorded, diff };
  if (!diff.replaces.length) {
    const outs = await face.update(kind, recorded.id, recorded.outs, inputs, { oldInputs: recorded.inputs });
    return { step: "update", now: { id: recorded.id, inputs, outs }, diff };
  }
  // The engine checks a replacement again with no recorded inputs: what check made for the old
  // object (a name) is made anew (pkg/resource/deploy/step_generator.go, "recompute the default values").
  const replacement = await checkedFor();
  if (diff.deleteBeforeReplace) await face.delete(kind, recorded.id, recorded.outs);
  const made = await face.create(kind, replacement);
  if (!diff.deleteBeforeReplace) await face.delete(kind, recorded.id, recorded.outs);
  return { step: "replace", now: { id: made.id, inputs: replacement, outs: made.outs }, diff };
}

/**
 * `up` for the resource a case calls `name`, its state recorded in `state` as the engine records
 * it between runs; with the mutating requests it made. The support modules' `upLogged`.
 */
export async function upRecorded(ctx: InProcess, state: Record<string, Recorded>, name: string, kind: string, declared: Props) {
  const since = await lastSeqOf(ctx.emu);
  const result = await up(ctx.face, kind, declared, state[name], { logicalName: name });
  state[name] = result.now;
  return { ...result, mutations: await mutationsSince(ctx.emu, since) };
}

/** Runs a describe block once per face, each with its own emulator (`ctx()` inside the cases). */
export function describeEachFace(
  title: string,
  body: (ctx: () => InProcess) => void,
  options: { workflowMs?: number; staff?: boolean } = {},
): void {
  describe.each(FACES)(`${title} (%s face)`, (name) => {
    let ctx: InProcess;
    beforeAll(async () => {
      ctx = await startInProcess(name, options);
    });
    afterAll(async () => {
      await ctx?.stop();
    });
    body(() => ctx);
  });
}
