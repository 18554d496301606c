/**
 * `npm run demo`, the README's main command, exactly as a user runs it.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

jest.setTimeout(600_000);

describe("npm run demo", () => {
  it("prints what the quickstart will cost, runs up, prints the outputs, previews no changes and destroys, leaving the emulator empty", () => {
    const env = { ...process.env, SVC_BASE_URL: "", SVC_TOKEN: "", SVC_WORKSPACE_ID: "", FORCE_COLOR: "0" };
    const run = spawnSync("npm", ["run", "demo"], { cwd: path.join(__dirname, "..", ".."), env, encoding: "utf8", timeout: 540_000 });
    // eslint-disable-next-line no-control-regex -- strips ANSI colour codes from npm output
    const out = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    expect({ status: run.status, tail: out.slice(-1500) }).toMatchObject({ status: 0 });
    expect(out).toMatch(/== target: the embedded emulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/svc cost of stack demo: \$[\d.]+\/month \(\$[\d.]+\/hour\)/);
    expect(out).toMatch(/web-1 \(Instance\): \$[\d.]+\/month = plan lightning-2 /);
    expect(out).toMatch(/serviceStatus: "RUNNING"/);
    expect(out).toMatch(/no changes: \d+ resources unchanged/);
    expect(out).toMatch(/emulator inventory after destroy: 0 live resources/);
    expect(out).toMatch(/== done in [\d.]+s: up [\d.]+s, preview clean, destroy complete/);
  });
});
