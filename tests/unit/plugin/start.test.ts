/**
 * The plugin process's start: the engine waits for it before the first call, and in a refresh
 * nothing overlaps it (no program runs), so what it loads is paid in full (bench/README.md,
 * "The plugin face's refresh").
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { runtimeImports } from "../../support/imports";

describe("the provider plugin's start", () => {
  it("loads the SDK by its modules, never its index (the automation API, closure serialization and TypeScript: ~200 ms of CPU)", () => {
    // plugin/main.ts before the port, plugin/server.ts at the first call.
    for (const entry of ["plugin/main.ts", "plugin/server.ts"]) {
      const loaded = runtimeImports(entry, { specifiers: true });
      expect({ entry, sdkModules: [...loaded].some((m) => m.startsWith("@pulumi/pulumi/")) }).toEqual({ entry, sdkModules: true });
      expect({ entry, sdkIndex: loaded.has("@pulumi/pulumi") }).toEqual({ entry, sdkIndex: false });
    }
  });

  it("prints its port before it loads the service: no lifecycle, zod or HTTP client until the first call", () => {
    const loaded = [...runtimeImports("plugin/main.ts")];
    expect(loaded.filter((m) => m === "zod" || /^(provider\/(lifecycle|client)\/|plugin\/server\.ts)/.test(m))).toEqual([]);
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
      // The first call loads the service behind the port and is answered by it.
      const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      try {
        const info = await new Promise<PluginInfo>((resolve, reject) =>
          client.getPluginInfo(new Empty(), (err, res) => (err ? reject(err) : resolve(res!))),
        );
        expect(info.getVersion()).toBe(
          (JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")) as { version: string }).version,
        );
      } finally {
        client.close();
      }
    } finally {
      child.kill();
    }
  });
});
