/**
 * Records the upgrade fixtures: each stack of stacks.ts brought up by an OLDER package against
 * this repository's emulator, then its exported deployment and the emulator's state file written
 * to tests/e2e/upgrade/<name>.json. upgrade.test.ts replays them with the current package.
 *
 *   git worktree add /tmp/svc-old <commit> && (cd /tmp/svc-old && npm ci)   # builds and links itself
 *   npx ts-node tests/e2e/upgrade/record.ts /tmp/svc-old
 *
 * The pulumi CLI is the one the tests drive (tests/support/pulumiCli.ts).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator } from "pulumi-svc-emulator/testing";
import { ensurePulumiCli } from "../../support/pulumiCli";
import { startE2E } from "../harness";
import { fixturePath, UPGRADE_EMULATOR, UPGRADE_STACKS, type UpgradeFixture } from "./stacks";

async function record(oldCheckout: string): Promise<void> {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: oldCheckout, encoding: "utf8" }).trim();
  ensurePulumiCli();
  for (const stack of UPGRADE_STACKS) {
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-upgrade-")), "emulator.json");
    const emulator = await startTestEmulator({ ...UPGRADE_EMULATOR, stateFile });
    const e2e = await startE2E(`upgrade-${stack.name}`, {
      programDir: stack.programDir,
      staff: stack.staff,
      emulator,
      packageRepo: oldCheckout,
    });
    for (const [key, value] of Object.entries(stack.secretConfig ?? {})) await e2e.stack.setConfig(key, { value, secret: true });
    await e2e.up(stack.declarations ?? []);
    const fixture: UpgradeFixture = {
      recordedWith: commit,
      baseUrl: emulator.emu.url,
      projectDir: e2e.dir,
      deployment: (await e2e.stack.exportStack()).deployment,
      emulator: JSON.parse(fs.readFileSync(stateFile, "utf8")),
    };
    fs.writeFileSync(fixturePath(stack), JSON.stringify(fixture, null, 1) + "\n");
    console.log(`recorded ${stack.name} with ${commit}: ${fixturePath(stack)}`);
    await e2e.stop(); // destroys the stack: the fixture was taken before
    await emulator.stop();
  }
}

const [oldCheckout] = process.argv.slice(2);
if (!oldCheckout) {
  console.error("usage: npx ts-node tests/e2e/upgrade/record.ts <checkout of an older commit, built>");
  process.exit(2);
}
record(path.resolve(oldCheckout)).catch((err) => {
  console.error(err);
  process.exit(1);
});
