/**
 * An upgrade of the package under stacks it already manages: the state an older package left
 * (tests/e2e/upgrade/<name>.json, written by upgrade/record.ts: the deployment `pulumi stack
 * export` gave after `up`, and the emulator's state file at that moment) is imported into a fresh
 * stack of the same program, against an emulator started from that state file, and driven by
 * this package through the real CLI. Issue 19's promise: the same state shape, so preview,
 * refresh and up see nothing to do, and destroy leaves nothing behind.
 *
 * The replay puts its own emulator URL and project directory where the recording had its own,
 * as a user's would be the same before and after an upgrade. Every kind is covered: the stacks of
 * upgrade/stacks.ts declare them all, checked below against resources/kinds.ts.
 *
 * A smoke entry of the version matrix takes over one stack per face, the YAML quickstart (the
 * plugin's state) and the kinds stack (the dynamic face's, most kinds no example declares): what
 * varies with the CLI and SDK is how the engine reads a recorded state, the same for every program.
 * The examples' stacks are this package's logic, proven on the entry that runs the whole suite.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { kinds } from "../../resources/kinds";
import { startTestEmulator, type TestEmulator } from "pulumi-svc-emulator/testing";
import { wholeSuite } from "../support/matrixEntry";
import { changes, isSvcType, startE2E, type E2E, type StateResource } from "./harness";
import { fixturePath, UPGRADE_EMULATOR, UPGRADE_STACKS, type UpgradeFixture, type UpgradeStack } from "./upgrade/stacks";

jest.setTimeout(900_000);

const fixtureOf = (stack: UpgradeStack): UpgradeFixture => JSON.parse(fs.readFileSync(fixturePath(stack), "utf8"));

/** The recorded value with every occurrence of `from` replaced by `to` (URL, directory). */
const rewritten = (value: unknown, swaps: Array<[string, string]>): unknown =>
  JSON.parse(swaps.reduce((text, [from, to]) => text.split(from).join(to), JSON.stringify(value)));

const resourcesOf = (deployment: unknown) => (deployment as { resources?: StateResource[] }).resources ?? [];
/** The package's resources, of either face (pulumi-nodejs:dynamic/svc:Vpc, svc:index:Vpc). */
const svcResources = (deployment: unknown) => resourcesOf(deployment).filter((r) => isSvcType(r.type));
const kindOf = (r: StateResource) => r.type.split(":").pop();
/** What the engine counts in a summary: every resource but the providers (the stack and components too). */
const counted = (deployment: unknown) => resourcesOf(deployment).filter((r) => !r.type.startsWith("pulumi:providers:")).length;

it("the recorded stacks declare every kind of the registry", () => {
  const recorded = new Set(UPGRADE_STACKS.flatMap((stack) => svcResources(fixtureOf(stack).deployment).map(kindOf)));
  expect([...recorded].sort()).toEqual(kinds().sort());
});

const SMOKE_STACKS = ["yaml-quickstart", "kinds"];
const STACKS = wholeSuite ? UPGRADE_STACKS : UPGRADE_STACKS.filter((s) => SMOKE_STACKS.includes(s.name));

describe.each(STACKS)("$name, as an older package left it", (stack) => {
  let fixture: UpgradeFixture;
  let emulator: TestEmulator;
  let e2e: E2E;
  let stateDir: string;

  beforeAll(async () => {
    fixture = fixtureOf(stack);
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-upgrade-"));
    const stateFile = path.join(stateDir, "emulator.json");
    fs.writeFileSync(stateFile, JSON.stringify(fixture.emulator));
    emulator = await startTestEmulator({ ...UPGRADE_EMULATOR, stateFile });
    e2e = await startE2E(`upgrade-${stack.name}`, { programDir: stack.programDir, staff: stack.staff, emulator });
    for (const [key, value] of Object.entries(stack.secretConfig ?? {})) await e2e.stack.setConfig(key, { value, secret: true });
    const deployment = rewritten(fixture.deployment, [
      [fixture.baseUrl, emulator.emu.url],
      [fixture.projectDir, e2e.dir],
    ]) as Record<string, unknown>;
    // The recording stack kept its secrets with a passphrase; the recorded deployment holds them as
    // plaintext, so it is imported under this stack's own secrets manager.
    await e2e.stack.importStack({ version: 3, deployment: { ...deployment, secrets_providers: e2e.secretsProviders() } });
  });
  afterAll(async () => {
    await e2e?.stop();
    await emulator?.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it("was recorded by an older commit, with resources the emulator still holds", async () => {
    expect(fixture.recordedWith).toMatch(/^[0-9a-f]{7,}$/);
    const ids = svcResources(fixture.deployment).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    expect((await e2e.inventoryTotal()).total).toBeGreaterThanOrEqual(ids.length);
  });

  it("previews no change and sends no mutating request", async () => {
    const since = await e2e.lastSeq();
    const preview = await e2e.preview(stack.declarations ?? []);
    expect(preview.changeSummary).toEqual({ same: counted(fixture.deployment) });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("refreshes without a change: every output reads back as the older package recorded it", async () => {
    const since = await e2e.lastSeq();
    expect(changes(await e2e.refresh())).toEqual({ same: counted(fixture.deployment) });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  // No preview after it: an up whose every step is "same" recorded inputs its diff found equal to
  // the declaration, so a preview would compare the declaration with itself.
  it("updates nothing on up", async () => {
    const since = await e2e.lastSeq();
    expect(changes(await e2e.up(stack.declarations ?? []))).toEqual({ same: counted(fixture.deployment) });
    expect(await e2e.mutations(since)).toEqual([]);
  });

  it("destroys everything it took over but its workspaces, which the API cannot delete", async () => {
    await e2e.destroy();
    const left = Object.entries((await e2e.inventoryTotal()).resources)
      .filter(([, objects]) => objects.length > 0)
      .map(([table, objects]) => [table, objects.map((o) => String((o as { id: unknown }).id))]);
    const workspaces = svcResources(fixture.deployment)
      .filter((r) => kindOf(r) === "Workspace")
      .map((r) => r.id);
    expect(Object.fromEntries(left)).toEqual(workspaces.length > 0 ? { workspaces } : {});
  });
});
