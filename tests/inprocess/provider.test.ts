/**
 * What every resource shares, on both faces, in process (tests/support/inProcess.ts), shown on a
 * Disk: a create whose answer was lost adopted instead of made twice; a create past its deadline
 * kept with its id (what the engine records) and finished by a later read or update; a create
 * whose workflow never ends failed at the deadline with the half-made disk kept, which delete
 * removes; `timeouts` never a change; reads answered 503 retried and a 429's Retry-After waited out
 * without a POST sent again blindly, each told as a person would see it; and a configuration
 * problem (no token, plain http to a host that is not loopback) is check's failure, naming what
 * to set.
 *
 * Elsewhere: the configuration's rules are tests/unit/provider/config.test.ts, and a check's
 * failure stopping `pulumi preview` is tests/e2e/messages.test.ts; `customTimeouts` as the engine
 * sends it, a deadline's record finished by the next `pulumi up` and `timeouts` never a diff,
 * through the engine, are tests/e2e/conformance.ts on both faces; what only the engine proves (the
 * one-line provider text, the token and a secret input kept out of the state file, the verbose
 * lines it prints, the SVC_* fallbacks in the provider's process) stays in tests/e2e/provider.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { setProgressSink, type ProgressKind } from "../../provider/runtime/progress";
import {
  CallError,
  describeEachFace,
  dynamicFace,
  FACES,
  opened,
  pluginFace,
  up,
  type Face,
  type Props,
  type Recorded,
  lastSeqOf,
  requestsSince,
} from "../support/inProcess";

const GiB = 1024 ** 3;

// A 429 teaches the pace of its API and token, which processes on this machine share for a
// minute (provider/client/paceStore.ts); an emulator of another test file may get this one's port
// and, from the same seed, its token: this file's pace stays in its own folder.
const paceDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-inprocess-pace-"));
process.env.SVC_PACE_DIR = paceDir;
afterAll(() => fs.rmSync(paceDir, { recursive: true, force: true }));

/** Every progress line the providers print (both faces run in this process), with its kind: what a person would see. */
const lines: Array<{ line: string; kind: ProgressKind }> = [];
beforeAll(() => setProgressSink((line, kind) => lines.push({ line, kind })));
beforeEach(() => (lines.length = 0));
const notices = () => lines.filter((l) => l.kind === "notice").map((l) => l.line);

describeEachFace("What every resource shares", (ctx) => {
  let wid: string;
  const face = () => ctx().face;
  const api = () => ctx().emu.api;
  const control = () => ctx().emu.control;
  const fault = async (rule: Record<string, unknown>) => expect((await control().post("/_emulator/faults", rule)).status).toBe(201);
  const lastSeq = () => lastSeqOf(ctx().emu);
  const requests = (since: number) => requestsSince(ctx().emu, since);
  const mutations = async (since: number) => (await requests(since)).filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
  const disksNamed = async (name: string) =>
    (await api().get(`/v1/workspaces/${wid}/disks`, { name })).body.items.filter((d: { name: string }) => d.name === name) as Array<{
      id: string;
      state: string;
    }>;
  const failureOf = (operation: Promise<unknown>) =>
    operation.then(
      () => {
        throw new Error("expected the call to fail, but it succeeded");
      },
      (err: unknown) => err as CallError,
    );
  const disk = (name: string, more: Props = {}): Props => ({ name, size: GiB, backend: "LOCAL", region: "NA_01", ...more });
  /** What the engine records of a create that failed with its object kept: the kept id, the declared inputs, the kept properties as outputs. */
  const recordedOf = async (err: CallError, declared: Props): Promise<Recorded> => ({
    id: err.kept!.id,
    inputs: opened((await face().check("Disk", declared)).inputs).value as Props,
    outs: err.kept!.properties,
  });

  beforeAll(() => {
    wid = ctx().emu.workspaceId;
  });
  afterEach(async () => {
    await control().delete("/_emulator/faults");
    await control().post("/_emulator/settings", { workflowMs: 20 });
  });

  it("adopts the disk a create made whose answer was lost (dropped after the write) instead of creating a second one", async () => {
    await fault({ kind: "drop", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const since = await lastSeq();
    const { now } = await up(face(), "Disk", disk("lost-answer"));
    expect((await mutations(since)).filter((r) => r.method === "POST")).toHaveLength(1);
    expect((await disksNamed("lost-answer")).map((d) => String(d.id))).toEqual([now.id]);
    expect(now.outs.state).toBe("AVAILABLE");
    expect(notices()).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^svc: Disk "lost-answer": the create answer was lost \\(.*\\); found the Disk the API created \\(id ${now.id}\\) and adopted it$`,
        ),
      ),
    );
  });

  it("keeps a create that outlived its deadline with its id; a later read, or the next up's update, finds it finished under that id", async () => {
    // The workflow outlasts the create's deadline; the emulator's clock, moved on, ends it.
    await control().post("/_emulator/settings", { workflowMs: 10_000 });
    const slow = disk("slow", { timeouts: { create: "1s" } });
    const err = await failureOf(up(face(), "Disk", slow));
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(/Disk "slow": create did not finish before its deadline/);
    expect(err.kept?.id).toMatch(/^\d+$/);
    expect(opened(err.kept!.properties).value).toMatchObject({ name: "slow", state: "PENDING" });
    const recorded = await recordedOf(err, slow);
    // Still moving as recorded: the next up updates it in place, replacing nothing.
    expect(await face().diff("Disk", recorded.id, recorded.outs, recorded.inputs, recorded.inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    await control().post("/_emulator/clock", { advanceMs: 10_000 });
    const read = await face().read("Disk", recorded.id, recorded.outs, recorded.inputs);
    expect(read).toMatchObject({ id: recorded.id, outs: { state: "AVAILABLE" } });
    const { step, now } = await up(face(), "Disk", slow, recorded);
    expect({ step, id: now.id, state: now.outs.state }).toEqual({ step: "update", id: recorded.id, state: "AVAILABLE" });
    expect((await disksNamed("slow")).map((d) => String(d.id))).toEqual([recorded.id]);
  });

  it("fails at the deadline from timeouts, keeping the half-created disk for the engine to record; its delete removes it", async () => {
    await fault({ kind: "stuck", method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const stuck = disk("stuck", { timeouts: { create: "1s" } });
    const err = await failureOf(up(face(), "Disk", stuck));
    expect(err).toBeInstanceOf(CallError);
    expect(err.message).toMatch(/Disk "stuck": create did not finish before its deadline .*raise timeouts\.create/s);
    expect(err.kept?.id).toMatch(/^\d+$/);
    expect(opened(err.kept!.properties).value).toMatchObject({ state: "PENDING" });
    expect((await api().get(`/v1/disks/${err.kept!.id}`)).body.state).toBe("PENDING");
    // What pulumi destroy does with the kept record.
    await face().delete("Disk", err.kept!.id, err.kept!.properties);
    expect((await api().get(`/v1/disks/${err.kept!.id}`)).status).toBe(404);
  });

  it("never diffs on timeouts: a changed or dropped deadline is no change, and nothing is sent", async () => {
    const timed = disk("timed", { timeouts: { create: "45m", delete: "2m" } });
    const { now } = await up(face(), "Disk", timed);
    const since = await lastSeq();
    const { timeouts: _left, ...untimed } = timed;
    for (const declared of [{ ...timed, timeouts: { create: "5m" } }, untimed]) {
      const again = await up(face(), "Disk", declared, now);
      expect({ timeouts: declared.timeouts, step: again.step, replaces: again.diff?.replaces }).toEqual({
        timeouts: declared.timeouts,
        step: "same",
        replaces: [],
      });
      // The plugin's detailed diff names no property either; the dynamic host forwards none.
      expect(again.diff?.detailed).toEqual(face().name === "plugin" ? {} : undefined);
    }
    expect(await mutations(since)).toEqual([]);
  });

  // Last of the block: the 429 teaches this API's pace, which the requests after it would keep to.
  it("retries reads answered 503 and waits out a 429's Retry-After, without resending a POST blindly", async () => {
    await fault({ kind: "status", status: 503, method: "GET", path: "/v1/disks/*", times: 2 });
    await fault({ kind: "status", status: 429, retryAfterSeconds: 1, method: "POST", path: "/v1/workspaces/*/disks", times: 1 });
    const since = await lastSeq();
    const { now } = await up(face(), "Disk", disk("retried"));
    const log = await requests(since);
    const posts = log.filter((r) => r.method === "POST" && r.path === `/v1/workspaces/${wid}/disks`);
    // A 429 is answered before the API does anything, so the same POST is sent again, once, after the wait it asked for.
    expect(posts.map((r) => r.status)).toEqual([429, 202]);
    expect(Date.parse(posts[1].time) - Date.parse(posts[0].time)).toBeGreaterThanOrEqual(1000);
    expect(log.filter((r) => r.method === "GET" && r.path === `/v1/disks/${now.id}` && r.status === 503)).toHaveLength(2);
    expect(now.outs.state).toBe("AVAILABLE");
    expect((await disksNamed("retried")).map((d) => String(d.id))).toEqual([now.id]);
    // The 503s are told; the 429 is a detail (PULUMI_SVC_VERBOSE=1), summed up once the process is idle.
    await sleep(200);
    expect(notices().filter((l) => l.startsWith(`svc: Disk "retried": GET /v1/disks/${now.id} answered 503; retrying in`))).toHaveLength(2);
    expect(notices().filter((l) => l.includes("answered 429;"))).toEqual([]);
    expect(lines).toContainEqual({
      line: expect.stringMatching(new RegExp(`^svc: Disk "retried": POST /v1/workspaces/${wid}/disks answered 429; retrying in`)),
      kind: "detail",
    });
    // The count is the process's (every limiter in it): both faces' providers live in this one test process.
    expect(notices()).toContainEqual(expect.stringMatching(/^svc: API requests: \d+ sent, \d+ answered 429 \(\d+\.\d%\), \d+s waiting/));
  });
});

describe.each(FACES)("Configuration problems at check (%s face)", (name) => {
  // The environment is the fallback of every setting: the machine running the tests must not fill one in.
  const VARIABLES = ["SVC_BASE_URL", "SVC_TOKEN", "SVC_WORKSPACE_ID"];
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const v of VARIABLES) {
      saved[v] = process.env[v];
      delete process.env[v];
    }
  });
  afterAll(() => {
    for (const v of VARIABLES) if (saved[v] !== undefined) process.env[v] = saved[v];
  });

  it.each([
    [
      "no token",
      { baseUrl: "http://127.0.0.1:9", token: "" },
      /^no API token: set svc:token \(pulumi config set --secret svc:token <token>\) or SVC_TOKEN/,
    ],
    [
      "plain http to a host that is not loopback",
      { baseUrl: "http://api.example.com", token: "a-token" },
      /plain http to a non-loopback host/,
    ],
  ])("%s: every resource's check fails, naming what to set", async (_problem, settings, reason) => {
    // A face of its own (no API behind it): the problem is found before any request could be sent.
    const face: Face = await (name === "plugin" ? pluginFace : dynamicFace)({ ...settings, workspaceId: "1" });
    try {
      const { failures } = await face.check("Vpc", { name: "config-net", description: "config", range: "10.1.0.0/16" });
      expect(failures).toEqual([{ property: "", reason: expect.stringMatching(reason) }]);
    } finally {
      await face.stop();
    }
  });
});
