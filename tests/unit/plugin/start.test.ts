/**
 * The plugin process's start: the engine waits for it before the first call, and in a refresh
 * nothing overlaps it (no program runs), so what it loads is paid in full (bench/README.md,
 * "The plugin face's refresh").
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { runtimeImports } from "../../support/imports";

describe("the provider plugin's start", () => {
  it("loads the SDK by its modules, never its index (the automation API, closure serialization and TypeScript: ~200 ms of CPU)", () => {
    const loaded = runtimeImports("plugin/main.ts", { specifiers: true });
    expect([...loaded].filter((m) => m.startsWith("@pulumi/pulumi/"))).not.toEqual([]);
    expect(loaded.has("@pulumi/pulumi")).toBe(false);
  });
});

describe("the provider plugin's launcher", () => {
  it("runs node with the young generation capped, as the process the engine started (bench/README.md)", async () => {
    const launcher = path.join(__dirname, "..", "..", "..", "bin", "pulumi-resource-svc");
    const child = spawn(launcher, [], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
        child.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before it listened`)));
      });
      expect(Number(port)).toBeGreaterThan(0);
      const argv = fs.readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
      expect(argv.slice(1, 3)).toEqual(["--max-semi-space-size=4", launcher]);
    } finally {
      child.kill();
    }
  });
});
