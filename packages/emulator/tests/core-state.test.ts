/**
 * Emulator core: `--state` persistence (restart with the same file, atomic writes, refusing
 * corrupt or foreign files) and POST /_emulator/reset.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../src";
import { DEFAULT_QUOTA } from "../src/model";
import { startTestEmulator, type TestEmulator } from "../src/testing";
import { ed25519Key } from "./accounts";

const GiB = 1024 ** 3;
let root: string;
const running: TestEmulator[] = [];

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-core-state-"));
});
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** A fresh directory for one test's state file. */
function tempDir(): string {
  return fs.mkdtempSync(path.join(root, "case-"));
}

async function start(options: Parameters<typeof startTestEmulator>[0] = {}): Promise<TestEmulator> {
  const t = await startTestEmulator(options);
  running.push(t);
  return t;
}

async function stop(t: TestEmulator): Promise<void> {
  running.splice(running.indexOf(t), 1);
  await t.stop();
}

function readState(file: string): {
  format: string;
  version: number;
  clockOffsetMs: number;
  tables: Record<string, Array<{ id: string }>>;
} {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

const vpcBody = (name = "persisted-net") => ({ name, description: "survives restarts", range: "10.20.0.0/16" });

describe("--state persistence", () => {
  it("restores resources, ids and bootstrap credentials, and finishes a workflow in flight", async () => {
    const file = path.join(tempDir(), "state.json");
    // Workflows take a minute: the disk is certainly still PENDING when the emulator stops.
    const first = await start({ stateFile: file, workflowMs: 60_000 });
    const ws = `/v1/workspaces/${first.workspaceId}`;
    const vpc = await first.api.post(`${ws}/vpcs`, vpcBody());
    const key = await first.api.post(`${ws}/ssh`, { name: "deploy-key", public_key: ed25519Key() });
    const disk = await first.api.post(`${ws}/disks`, { name: "data-1", size: GiB, backend: "LOCAL", region: "NA_01" });
    expect([vpc.status, key.status, disk.status]).toEqual([201, 201, 202]);
    expect(disk.body.resource.state).toBe("PENDING");
    const before = {
      vpc: (await first.api.get(`/v1/vpcs/${vpc.body.id}`)).body,
      key: (await first.api.get(`/v1/ssh/${key.body.id}`)).body,
      inventory: (await first.control.get("/_emulator/inventory")).body,
    };
    const credentials = (e: TestEmulator["emu"]) => ({
      token: e.token,
      staffToken: e.staffToken,
      workspaceId: e.workspaceId,
      userId: e.userId,
      email: e.email,
      password: e.password,
    });
    const firstCredentials = credentials(first.emu);
    await stop(first);

    // A different seed and workflow time on restart: the file wins for everything it holds.
    const second = await start({ stateFile: file, seed: 999, workflowMs: 30 });
    expect(credentials(second.emu)).toEqual(firstCredentials);
    expect((await second.api.get(ws)).status).toBe(200);
    expect((await second.staff.get("/v1/nodes")).status).toBe(200);
    expect((await second.api.get(`/v1/vpcs/${vpc.body.id}`)).body).toEqual(before.vpc);
    expect((await second.api.get(`/v1/ssh/${key.body.id}`)).body).toEqual(before.key);
    expect((await second.control.get("/_emulator/inventory")).body).toEqual(before.inventory);

    // The workflow kept its schedule across the restart: still in flight, then done once its time comes.
    const wfPath = `/v1/workflows/${disk.body.workflow.id}`;
    expect(["QUEUED", "RUNNING"]).toContain((await second.api.get(wfPath)).body.state);
    expect((await second.api.get(`/v1/disks/${disk.body.resource.id}`)).body.state).toBe("PENDING");
    await second.control.post("/_emulator/clock", { advanceMs: 61_000 });
    expect((await second.api.get(wfPath)).body.state).toBe("COMPLETED");
    expect((await second.api.get(`/v1/disks/${disk.body.resource.id}`)).body.state).toBe("AVAILABLE");

    // New work uses the restarted emulator's settings, and new ids do not collide with old ones.
    const more = await second.api.post(`${ws}/vpcs`, vpcBody("after-restart"));
    expect(more.status).toBe(201);
    expect([vpc.body.id, key.body.id, disk.body.resource.id]).not.toContain(more.body.id);
  });

  it("continues the seeded id sequence across a restart exactly as an uninterrupted run would", async () => {
    const file = path.join(tempDir(), "state.json");
    const a = await start({ stateFile: file, seed: 4242 });
    const ws = `/v1/workspaces/${a.workspaceId}`;
    const one = (await a.api.post(`${ws}/vpcs`, vpcBody("one-net"))).body.id;
    await stop(a);
    const b = await start({ stateFile: file, seed: 4242 });
    const two = (await b.api.post(`${ws}/vpcs`, vpcBody("two-net"))).body.id;
    await stop(b);

    const plain = await start({ seed: 4242 });
    expect(plain.workspaceId).toBe(a.workspaceId);
    expect((await plain.api.post(`${ws}/vpcs`, vpcBody("one-net"))).body.id).toBe(one);
    expect((await plain.api.post(`${ws}/vpcs`, vpcBody("two-net"))).body.id).toBe(two);
  });

  it("keeps the clock offset across a restart", async () => {
    const file = path.join(tempDir(), "state.json");
    const a = await start({ stateFile: file });
    await a.control.post("/_emulator/clock", { advanceMs: 3 * 86_400_000 });
    await stop(a);
    const b = await start({ stateFile: file });
    expect((await b.control.get("/_emulator/clock")).body.offsetMs).toBe(3 * 86_400_000);
  });

  it("writes the file after every change, atomically (a new file renamed over the old; no temp files left)", async () => {
    const dir = tempDir();
    const file = path.join(dir, "state.json");
    const t = await start({ stateFile: file });
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
    const state = readState(file);
    expect(state).toMatchObject({ format: "pulumi-svc-emulator-state", version: 1 });
    expect(state.tables.vpcs ?? []).toEqual([]);

    const ws = `/v1/workspaces/${t.workspaceId}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const previous = fs.statSync(file).ino;
      const res = await t.api.post(`${ws}/vpcs`, vpcBody(`net-${i}-xx`));
      ids.push(res.body.id);
      // Already on disk when the response arrives.
      expect(readState(file).tables.vpcs.map((v) => v.id)).toEqual(ids);
      // The write replaced the file (a new file renamed over it) rather than rewriting it in place.
      expect(fs.statSync(file).ino).not.toBe(previous);
    }
    expect((await t.api.delete(`/v1/vpcs/${ids[0]}`)).status).toBe(200);
    expect(readState(file).tables.vpcs.map((v) => v.id)).toEqual(ids.slice(1));
    // Reads do not rewrite the file.
    const mtime = fs.statSync(file).mtimeMs;
    const ino = fs.statSync(file).ino;
    await t.api.get(ws);
    await t.api.get(`${ws}/vpcs`);
    expect([fs.statSync(file).ino, fs.statSync(file).mtimeMs]).toEqual([ino, mtime]);
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
  });

  it.each([
    ["invalid JSON", "{ this is not json"],
    ["an empty file", ""],
    ["JSON null", "null"],
    ["another format", JSON.stringify({ format: "terraform-state", version: 4, tables: {} })],
    ["a future version of the format", JSON.stringify({ format: "pulumi-svc-emulator-state", version: 2, tables: {} })],
  ])("refuses to start from %s, naming the file and leaving it untouched", async (_label, content) => {
    const file = path.join(tempDir(), "state.json");
    fs.writeFileSync(file, content);
    await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(file);
    expect(fs.readFileSync(file, "utf8")).toBe(content);
  });

  it("refuses an unreadable path (a directory), naming it", async () => {
    const dir = tempDir();
    await expect(startEmulator({ port: 0, stateFile: dir })).rejects.toThrow(dir);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
  });
});

describe("POST /_emulator/reset", () => {
  it("returns to the seed: resources gone, token valid, faults/clock/log cleared, settings as at startup", async () => {
    const dir = tempDir();
    const file = path.join(dir, "state.json");
    // A fresh emulator: nothing has been reset yet, so seed rows changed now must still come back.
    const t = await start({ stateFile: file });
    const ws = `/v1/workspaces/${t.workspaceId}`;
    const startup = (await t.control.get("/_emulator/settings")).body;

    const vpc = await t.api.post(`${ws}/vpcs`, vpcBody());
    const key = await t.api.post(`${ws}/ssh`, { name: "deploy-key", public_key: ed25519Key() });
    expect([vpc.status, key.status]).toEqual([201, 201]);
    await t.control.patch(`/_emulator/tables/workspaces/${t.workspaceId}`, {
      name: "renamed-ws",
      quota: { ...DEFAULT_QUOTA, max_vpcs: 1 },
    });
    expect((await t.api.get(ws)).body.name).toBe("renamed-ws");
    await t.control.post("/_emulator/faults", { kind: "status", status: 503, path: "/v1/never-called" });
    await t.control.post("/_emulator/clock", { advanceMs: 86_400_000 });
    await t.control.post("/_emulator/settings", {
      workflowMs: 4321,
      rateLimits: { general: { burst: 500, perSecond: 5 } },
      registryAccounts: { "registry.test": { bot: "pw" } },
    });
    expect((await t.control.get("/_emulator/requests")).body.requests.length).toBeGreaterThan(0);
    expect((await t.control.get("/_emulator/inventory")).body.total).toBe(2);

    const res = await t.control.post("/_emulator/reset");
    expect(res.status).toBe(204);

    // Controls first (they are not logged), so the log is seen exactly as reset left it.
    expect((await t.control.get("/_emulator/requests")).body.requests).toEqual([]);
    expect((await t.control.get("/_emulator/faults")).body.faults).toEqual([]);
    expect((await t.control.get("/_emulator/clock")).body.offsetMs).toBe(0);
    expect((await t.control.get("/_emulator/settings")).body).toEqual(startup);
    expect((await t.control.get("/_emulator/inventory")).body.total).toBe(0);

    // The bootstrap token still works; the seed rows are as seeded.
    const got = await t.api.get(ws);
    expect(got.status).toBe(200);
    expect(got.body.name).toBe("demo-workspace");
    expect((await t.api.get(`${ws}/quota`)).body).toMatchObject({ max_vpcs: DEFAULT_QUOTA.max_vpcs });
    expect((await t.api.get(`/v1/vpcs/${vpc.body.id}`)).status).toBe(404);
    expect((await t.api.get(`/v1/ssh/${key.body.id}`)).status).toBe(404);
    // Workflows are back to the startup duration (30 ms here), not 4321 ms.
    const disk = await t.api.post(`${ws}/disks`, { name: "data-1", size: GiB, backend: "LOCAL", region: "NA_01" });
    const wf = (await t.control.get(`/_emulator/tables/workflows/${disk.body.workflow.id}`)).body;
    expect(wf.endsAt - wf.created).toBe(30);

    // The state file was reset too.
    const state = readState(file);
    expect(state.clockOffsetMs).toBe(0);
    expect(state.tables.vpcs ?? []).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
  });

  it("resets to the seed after a restart from the state file too", async () => {
    const file = path.join(tempDir(), "state.json");
    const a = await start({ stateFile: file });
    const ws = `/v1/workspaces/${a.workspaceId}`;
    const vpc = (await a.api.post(`${ws}/vpcs`, vpcBody())).body;
    await stop(a);
    const b = await start({ stateFile: file });
    expect((await b.api.get(`/v1/vpcs/${vpc.id}`)).status).toBe(200);
    expect((await b.control.post("/_emulator/reset")).status).toBe(204);
    expect((await b.api.get(`/v1/vpcs/${vpc.id}`)).status).toBe(404);
    expect(b.emu.token).toBe(a.emu.token);
    expect((await b.api.get(ws)).status).toBe(200);
    expect((await b.control.get("/_emulator/inventory")).body.total).toBe(0);
  });

  it("a reset emulator issues the same ids again (the seeded generator is rewound)", async () => {
    const t = await start({ seed: 77 });
    const ws = `/v1/workspaces/${t.workspaceId}`;
    const first = (await t.api.post(`${ws}/vpcs`, vpcBody())).body.id;
    await t.control.post("/_emulator/reset");
    expect((await t.api.post(`${ws}/vpcs`, vpcBody())).body.id).toBe(first);
  });
});
