/**
 * The plugin process's start: the engine waits for it before the first call, and in a refresh
 * nothing overlaps it (no program runs), so what it loads is paid in full (bench/README.md,
 * "The plugin face's refresh").
 */
import { runtimeImports } from "../../support/imports";

describe("the provider plugin's start", () => {
  it("loads the SDK by its modules, never its index (the automation API, closure serialization and TypeScript: ~200 ms of CPU)", () => {
    const loaded = runtimeImports("plugin/main.ts", { specifiers: true });
    expect([...loaded].filter((m) => m.startsWith("@pulumi/pulumi/"))).not.toEqual([]);
    expect(loaded.has("@pulumi/pulumi")).toBe(false);
  });
});
