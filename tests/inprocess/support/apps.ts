/**
 * What the App, Recipe, RecipeInstallation and AppTemplate files share
 * (tests/inprocess/{app,appTemplate,recipe,recipeInstallation}.test.ts): one emulator's requests, recorded state and the
 * helpers its cases call, the running instance the apps and installations are made on, the
 * recipe they install, and the notices a provider shows.
 */
import { setProgressSink } from "../../../provider/runtime/progress";
import {
  CallError,
  opened,
  secret,
  up,
  type InProcess,
  type Props,
  type Recorded,
  lastSeqOf,
  mutationsSince,
  type Logged,
  upRecorded,
} from "../../support/inProcess";

/** The requests, state and declarations one emulator's cases share. */
export function appsHarness(ctx: () => InProcess) {
  const state: Record<string, Recorded> = {};
  const api = () => ctx().emu.api;
  const get = async (path: string) => (await api().get(path)).body;
  const lastSeq = () => lastSeqOf(ctx().emu);
  const mutations = (since: number) => mutationsSince(ctx().emu, since);
  const writes = (logged: Logged[]) => logged.map((r) => `${r.method} ${r.path}`);
  const upLogged = (name: string, kind: string, declared: Props) => upRecorded(ctx(), state, name, kind, declared);
  /** An up expected to fail: its error, the mutating requests it made, and the state left as it was. */
  const upFails = async (name: string, kind: string, declared: Props) => {
    const since = await lastSeq();
    const err = (await up(ctx().face, kind, declared, state[name]).then(
      () => undefined,
      (e: unknown) => e,
    )) as CallError;
    expect(err).toBeInstanceOf(CallError);
    return { err, mutations: await mutations(since) };
  };
  /** A refresh of one resource: the read's outputs (and, from the plugin, inputs) become the recorded state. */
  const refresh = async (name: string, kind: string): ReturnType<InProcess["face"]["read"]> => {
    const read = await ctx().face.read(kind, state[name].id, state[name].outs, state[name].inputs);
    if (read.id) state[name] = { id: read.id, outs: read.outs, inputs: read.inputs ?? state[name].inputs };
    else delete state[name];
    return read;
  };
  /** Outputs with the plugin's secret envelopes opened, and the members it marked secret. */
  const outsOf = (name: string) => {
    const { value, secrets } = opened(state[name].outs);
    return { outs: value as Props, secrets: secrets.filter((s) => !s.includes(".") && !s.includes("[")) };
  };
  /** A secret the program declares: the engine sends it marked to the plugin; the dynamic host takes no secrets. */
  const declaredSecret = (value: unknown) => (ctx().face.name === "plugin" ? secret(value) : value);
  /** The members a face marks secret in an answer: the plugin marks the kind's secret outputs; the dynamic host none (the class does). */
  const secretsOn = (plugin: string[]) => (ctx().face.name === "plugin" ? plugin : []);
  return { state, api, get, lastSeq, mutations, writes, upLogged, upFails, refresh, outsOf, declaredSecret, secretsOn };
}

/** A running instance made through the API, for the apps and installations (the instance is not what these cases prove). */
export async function runningInstance(ctx: () => InProcess, name: string): Promise<string> {
  const { api, workspaceId } = ctx().emu;
  const plans = (await api.get("/v1/plans", { name: "lightning-2" })).body.items as Array<{ id: string; name: string }>;
  const plan = plans.find((p) => p.name === "lightning-2")!.id;
  const made = await api.post(`/v1/workspaces/${workspaceId}/instances`, { type: "PLAN", name, region: "NA_01", plan: BigInt(plan) });
  expect(made.status).toBe(202);
  const id = String(made.body.resource.id);
  await ctx().emu.waitFor(`/v1/instances/${id}`, (b: { state: string; online: boolean }) => b.state === "AVAILABLE" && b.online, 10_000);
  return id;
}

export const PASSWORD = "Recipe-pa55-inproc-4c9d1a";
export const PASSWORD_2 = "Recipe-rotated-inproc-77b0e2";

/** The recipe the apps, recipe and installation files declare, with three fields; a fresh copy, changed case by case. */
export const helloRecipe = (): Props => ({
  name: "hello-recipe",
  category: "TOOLS",
  description: "# Hello\nSays hello.",
  commands: [{ path: "/opt/hello/install.sh", args: ["--greeting", "$SVC_FIELDS_GREETING"] }],
  fields: [
    { id: "GREETING", label: "Greeting", type: "TEXT", required: true },
    { id: "TOKEN", label: "Token", type: "PASSWORD" },
    { id: "COUNT", label: "Count", type: "NUMBER" },
  ],
});

/**
 * What a face's provider tells a person (ctx.notice), collected for the file: the engine shows these
 * lines under the resource or the stack. Both faces' emulators start from one seed, so ids repeat:
 * a case sees only its own lines.
 */
export function collectNotices(): string[] {
  const notices: string[] = [];
  beforeAll(() => setProgressSink((line, kind) => kind === "notice" && notices.push(line)));
  beforeEach(() => {
    notices.length = 0;
  });
  return notices;
}
