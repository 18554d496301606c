/**
 * What a person sees, through the real engine: configuration problems fail the preview, each
 * printed once (a missing token, an API nothing answers at, a rejected token); an up prints
 * nothing extra for work that settles quickly and a heartbeat for work that does not; a refresh
 * names the properties changed outside Pulumi. One stack.
 */
import { failureOf, startE2E, type Declaration, type E2E } from "./harness";

jest.setTimeout(600_000);

/** The automation API's error repeats the CLI's output after "err?:"; what the CLI printed is the part before. */
const printed = (message: string) => message.split(/\n\s*err\?: /)[0];
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("what a person sees, through the real pulumi engine", () => {
  let e2e: E2E;
  const vpc: Declaration = { type: "Vpc", name: "net", args: { name: "msg-net", description: "messages e2e", range: "10.78.0.0/16" } };
  const disk: Declaration = { type: "Disk", name: "data", args: { name: "msg-disk", size: 1024 ** 3, backend: "LOCAL", region: "NA_01" } };
  const declared = [vpc, disk];
  /** How long a preview that fails without asking the API takes here (the baseline for "quickly"). */
  let failingPreviewMs = 0;

  beforeAll(async () => {
    e2e = await startE2E("messages");
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("fails a preview without svc:token once, naming what to set, before any API request", async () => {
    await e2e.stack.removeConfig("svc:token");
    try {
      const since = await e2e.lastSeq();
      const started = Date.now();
      const out = printed(await failureOf(e2e.preview(declared)));
      failingPreviewMs = Date.now() - started;
      expect(out).toMatch(/has a problem: no API token: set svc:token \(pulumi config set --secret svc:token <token>\) or SVC_TOKEN/);
      expect(count(out, "no API token")).toBe(1);
      expect(await e2e.requests(since)).toEqual([]);
    } finally {
      await e2e.stack.setConfig("svc:token", { value: e2e.emu.emu.token, secret: true });
    }
  });

  it("fails a preview quickly when nothing answers at svc:baseUrl, naming the URL", async () => {
    await e2e.stack.setConfig("svc:baseUrl", { value: "http://127.0.0.1:9" });
    try {
      const started = Date.now();
      const out = printed(await failureOf(e2e.preview(declared)));
      // Ten retries used to add 20-30 s here before saying anything; a few add a second or two.
      expect(Date.now() - started).toBeLessThan(failingPreviewMs + 8_000);
      expect(out).toMatch(/has a problem: the API at http:\/\/127\.0\.0\.1:9 cannot be reached \(ECONNREFUSED\): check svc:baseUrl/);
      expect(count(out, "cannot be reached")).toBe(1);
    } finally {
      await e2e.stack.setConfig("svc:baseUrl", { value: e2e.emu.emu.url });
    }
  });

  it("fails a preview whose token the API rejects, with one request", async () => {
    await e2e.stack.setConfig("svc:token", { value: "not-a-token", secret: true });
    try {
      const since = await e2e.lastSeq();
      const out = printed(await failureOf(e2e.preview(declared)));
      expect(out).toMatch(
        /has a problem: the API at http:\/\/127\.0\.0\.1:\d+ rejects the token \(GET \/v1\/plans answered 401: .+\): set a valid API token with pulumi config set --secret svc:token/,
      );
      expect(count(out, "rejects the token")).toBe(1);
      expect((await e2e.requests(since)).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /v1/plans 401"]);
    } finally {
      await e2e.stack.setConfig("svc:token", { value: e2e.emu.emu.token, secret: true });
    }
  });

  it("prints nothing for a resource that settles quickly, and a heartbeat for one that takes longer than 10 s", async () => {
    // The disk's create workflow takes 12 s; the VPC is created at once.
    await e2e.emu.control.post("/_emulator/settings", { workflowMs: 12_000 });
    try {
      await e2e.up(declared);
    } finally {
      await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
    }
    const out = e2e.output();
    expect(out).toMatch(/svc: Disk "msg-disk": still creating… \(10s elapsed; workflow (QUEUED|RUNNING)\)/);
    expect(out).not.toMatch(/svc: Vpc/);
    // The step-by-step detail is for PULUMI_SVC_VERBOSE=1 (tests/e2e/provider.test.ts).
    expect(out).not.toMatch(/created id|: workflow \S+ \d+ QUEUED/);
  });

  it("names the properties a refresh finds changed outside Pulumi, and the next up reverts them", async () => {
    const id = await e2e.idOf("net");
    expect((await e2e.emu.api.patch(`/v1/vpcs/${id}`, { description: "changed by hand" })).status).toBeLessThan(300);
    await e2e.refresh();
    expect(e2e.output()).toContain('svc: Vpc "msg-net": drifted outside Pulumi: description; the next pulumi up reverts them');
    await e2e.up(declared);
    expect((await e2e.emu.api.get(`/v1/vpcs/${id}`)).body.description).toBe("messages e2e");
  });
});
