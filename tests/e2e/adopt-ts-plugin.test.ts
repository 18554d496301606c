/**
 * Adopting a workspace made by hand into a TypeScript program on the plugin face (./adopt.ts): the
 * generated index.ts uses the typed classes of sdk/nodejs (`pulumi-svc-sdk`), built as published
 * (./nodeSdk.ts) into a directory the program finds through NODE_PATH (its own node_modules is this
 * repository's).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeAdoption, typeCheck } from "./adopt";
import { buildNodeSdk } from "./nodeSdk";

jest.setTimeout(600_000);

let modules: string;
afterAll(() => fs.rmSync(path.dirname(modules), { recursive: true, force: true }));

describeAdoption({
  name: "TypeScript",
  program: "index.ts",
  // The finished program against the SDK's declarations: the typed classes are what it compiles with.
  compiles: (file) => typeCheck(file, { "pulumi-svc-sdk": path.join(modules, "pulumi-svc-sdk") }),
  project(dir, plugin) {
    modules = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "svc-adopt-sdk-")), "node_modules");
    buildNodeSdk(modules);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: adopt-ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nplugins:\n  providers:\n    - name: svc\n      path: ${plugin}\n`,
    );
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "adopt-ts", private: true, main: "index.ts" }, null, 2));
    // pulumi import names the file it writes; the program is empty until then.
    fs.writeFileSync(path.join(dir, "index.ts"), "");
    return { env: { NODE_PATH: modules } };
  },
});
