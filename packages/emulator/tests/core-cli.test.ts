/**
 * Emulator core: the command line (`svc-emulator`: `node dist/cli.js` in this package, `npm run
 * emulator` at the repository's root). Needs the build output: `npm test` builds first; alone, run
 * `npm run build` in this package before.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const ROOT = path.resolve(__dirname, "..");
const CLI = path.join(ROOT, "dist", "cli.js");
const START_TIMEOUT_MS = 20_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Launched {
  child: ChildProcess;
  /** The first stdout line, parsed. */
  info: { url: string; token: string; workspaceId: string; staffToken: string };
  firstLine: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
}

const children: Array<{ child: ChildProcess; group: boolean }> = [];
let tmp: string;

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.build.json)`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-core-cli-"));
});
afterEach(() => {
  // Stop whatever a failed test left running (only the processes this file started).
  for (const { child, group } of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
    try {
      process.kill(group ? -child.pid : child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function spawnTracked(
  command: string,
  args: string[],
  group = false,
): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<Exit> } {
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: group,
    env: { ...process.env, NO_COLOR: "1" },
  });
  children.push({ child, group });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<Exit>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts a process and resolves once its first stdout line has arrived. */
async function launch(command: string, args: string[], group = false): Promise<Launched> {
  const p = spawnTracked(command, args, group);
  const firstLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no output from ${command} ${args.join(" ")} in ${START_TIMEOUT_MS} ms; stderr: ${p.stderr()}`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      const nl = p.stdout().indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        p.child.stdout!.off("data", check);
        resolve(p.stdout().slice(0, nl));
      }
    };
    p.child.stdout!.on("data", check);
    void p.exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${e.code ?? e.signal}) before printing a line; stderr: ${p.stderr()}`));
    });
  });
  return { child: p.child, info: JSON.parse(firstLine), firstLine, stdout: p.stdout, stderr: p.stderr, exited: p.exited };
}

/** Waits until the process has written `text` to stdout (lines after the first arrive separately). */
async function waitOutput(l: Launched, text: string): Promise<string> {
  const deadline = Date.now() + 5000;
  while (!l.stdout().includes(text) && Date.now() < deadline) await sleep(20);
  return l.stdout();
}

/** Runs to completion (for invocations that must fail fast). */
async function run(args: string[]): Promise<Exit & { stdout: string; stderr: string }> {
  const p = spawnTracked(process.execPath, [CLI, ...args]);
  const timer = setTimeout(() => p.child.kill("SIGKILL"), START_TIMEOUT_MS);
  const exit = await p.exited;
  clearTimeout(timer);
  return { ...exit, stdout: p.stdout(), stderr: p.stderr() };
}

async function getJson(url: string, token: string): Promise<{ status: number; body: { id?: string } }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** Whether anything still answers at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/_emulator/clock`);
    return true;
  } catch {
    return false;
  }
}

describe("node dist/cli.js", () => {
  it("prints the JSON line first, serves with the printed token, and stops on SIGTERM", async () => {
    const emu = await launch(process.execPath, [CLI, "--port", "0", "--seed", "5"]);
    expect(Object.keys(emu.info)).toEqual(["url", "token", "workspaceId", "staffToken"]);
    expect(emu.info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.info.token).toMatch(/^svc_\w+$/);
    expect(emu.info.staffToken).toMatch(/^svc_\w+$/);
    expect(emu.info.workspaceId).toMatch(/^\d+$/);
    expect(BigInt(emu.info.workspaceId)).toBeGreaterThan(2n ** 53n);

    const ws = await getJson(`${emu.info.url}/v1/workspaces/${emu.info.workspaceId}`, emu.info.token);
    expect(ws.status).toBe(200);
    expect(ws.body.id).toBe(emu.info.workspaceId);
    expect((await getJson(`${emu.info.url}/v1/nodes`, emu.info.staffToken)).status).toBe(200);
    expect((await getJson(`${emu.info.url}/v1/workspaces/${emu.info.workspaceId}`, "svc_wrong")).status).toBe(401);
    // Human-friendly lines follow the JSON line.
    expect((await waitOutput(emu, "listening on")).split("\n")[1]).toContain(`listening on ${emu.info.url}`);

    emu.child.kill("SIGTERM");
    expect(await emu.exited).toEqual({ code: 0, signal: null });
    expect(await answers(emu.info.url)).toBe(false);
  });

  it("gives the same credentials for the same --seed", async () => {
    const [a, b, c] = await Promise.all([
      launch(process.execPath, [CLI, "--port", "0", "--seed", "5"]),
      launch(process.execPath, [CLI, "--port=0", "--seed=5"]),
      launch(process.execPath, [CLI, "--port", "0", "--seed", "6"]),
    ]);
    const creds = (l: Launched) => ({ token: l.info.token, staffToken: l.info.staffToken, workspaceId: l.info.workspaceId });
    expect(creds(b)).toEqual(creds(a));
    expect(b.info.url).not.toBe(a.info.url);
    expect(c.info.token).not.toBe(a.info.token);
    for (const l of [a, b, c]) l.child.kill("SIGTERM");
    for (const l of [a, b, c]) expect((await l.exited).code).toBe(0);
  });

  it("honours --id-mode small and --workflow-ms", async () => {
    const emu = await launch(process.execPath, [CLI, "--port", "0", "--id-mode", "small", "--workflow-ms", "1234"]);
    expect(emu.info.workspaceId).toBe("3");
    expect(await waitOutput(emu, "workflows take")).toContain("workflows take 1234 ms");
    const settings = await getJson(`${emu.info.url}/_emulator/settings`, emu.info.token);
    expect(settings.body).toMatchObject({ workflowMs: 1234 });
    emu.child.kill("SIGTERM");
    expect((await emu.exited).code).toBe(0);
  });

  it("bad options exit non-zero with a usage message naming the option", async () => {
    const cases: Array<[string[], string]> = [
      [["--port", "abc"], "--port"],
      [["--port", "70000"], "--port"],
      [["--port"], "--port"],
      [["--bogus"], "unknown option --bogus"],
      [["--seed", "-1"], "--seed"],
      [["--workflow-ms", "soon"], "--workflow-ms"],
      [["--id-mode", "medium"], "--id-mode"],
      [["--state"], "--state"],
    ];
    // Independent processes: run them side by side.
    const results = await Promise.all(cases.map(([args]) => run(args)));
    const seen = results.map((res, i) => ({
      args: cases[i][0],
      failed: res.code !== null && res.code !== 0,
      namesOption: res.stderr.includes(cases[i][1]),
      usage: res.stderr.includes("usage: emulator"),
      stdout: res.stdout,
    }));
    expect(seen).toEqual(cases.map(([args]) => ({ args, failed: true, namesOption: true, usage: true, stdout: "" })));
  });

  it("--help prints the usage and exits 0", async () => {
    const res = await run(["--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("usage: emulator");
  });

  it("--state with a corrupt file exits non-zero naming the file, and leaves the file alone", async () => {
    const file = path.join(tmp, "corrupt.json");
    fs.writeFileSync(file, "{ definitely not json");
    const res = await run(["--port", "0", "--state", file]);
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBeNull();
    expect(res.stderr).toContain(file);
    expect(res.stdout).toBe("");
    expect(fs.readFileSync(file, "utf8")).toBe("{ definitely not json");

    const dirRes = await run(["--port", "0", "--state", tmp]);
    expect(dirRes.code).not.toBe(0);
    expect(dirRes.stderr).toContain(tmp);
  });

  it("--state keeps the credentials across runs", async () => {
    const file = path.join(tmp, "good.json");
    const a = await launch(process.execPath, [CLI, "--port", "0", "--seed", "11", "--state", file]);
    expect(fs.existsSync(file)).toBe(true);
    expect(await waitOutput(a, "state persisted")).toContain(`state persisted to ${file}`);
    a.child.kill("SIGTERM");
    expect((await a.exited).code).toBe(0);
    const b = await launch(process.execPath, [CLI, "--port", "0", "--seed", "12", "--state", file]);
    expect({ token: b.info.token, workspaceId: b.info.workspaceId, staffToken: b.info.staffToken }).toEqual({
      token: a.info.token,
      workspaceId: a.info.workspaceId,
      staffToken: a.info.staffToken,
    });
    expect((await getJson(`${b.info.url}/v1/workspaces/${b.info.workspaceId}`, a.info.token)).status).toBe(200);
    b.child.kill("SIGTERM");
    expect((await b.exited).code).toBe(0);
  });

  it("--flag=value keeps everything after the first = (a state path may contain =)", async () => {
    const dir = fs.mkdtempSync(path.join(tmp, "eq-"));
    const file = path.join(dir, "a=b.json");
    const emu = await launch(process.execPath, [CLI, "--port=0", `--state=${file}`]);
    expect(fs.readdirSync(dir)).toEqual(["a=b.json"]);
    emu.child.kill("SIGTERM");
    expect((await emu.exited).code).toBe(0);
  });
});

describe("npm start --silent", () => {
  it("prints the JSON line first on stdout (--silent drops npm's banner) and serves", async () => {
    // Its own process group, so the whole npm -> sh -> node chain can be stopped together.
    const emu = await launch("npm", ["start", "--silent", "--", "--port", "0"], true);
    expect(JSON.parse(emu.firstLine)).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      token: expect.any(String),
      workspaceId: expect.any(String),
      staffToken: expect.any(String),
    });
    const ws = await getJson(`${emu.info.url}/v1/workspaces/${emu.info.workspaceId}`, emu.info.token);
    expect(ws.status).toBe(200);
    expect(ws.body.id).toBe(emu.info.workspaceId);

    process.kill(-emu.child.pid!, "SIGTERM");
    await emu.exited;
    // The emulator itself is gone too, not just npm.
    const deadline = Date.now() + 10_000;
    while ((await answers(emu.info.url)) && Date.now() < deadline) await sleep(50);
    expect(await answers(emu.info.url)).toBe(false);
  });
});
