/**
 * Adopting a workspace made by hand into a Go program through the plugin (./adopt.ts): the
 * generated main.go on the committed Go SDK (sdk/go, through a replace in go.mod, as
 * examples/go-quickstart does), built by the Go language host.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describeAdoption, REPO } from "./adopt";

jest.setTimeout(900_000);

const QUICKSTART = path.join(REPO, "examples", "go-quickstart");

describeAdoption({
  name: "Go",
  program: "main.go",
  project(dir, plugin) {
    // The quickstart's module requirements (go.sum included), under another name, the SDK replaced by this checkout's.
    const mod = fs
      .readFileSync(path.join(QUICKSTART, "go.mod"), "utf8")
      .replace(/^module .*$/m, "module adopt-go")
      .replace(/=> \.\.\/\.\.\/sdk\/go/, `=> ${path.join(path.dirname(plugin), "sdk", "go")}`);
    fs.writeFileSync(path.join(dir, "go.mod"), mod);
    fs.copyFileSync(path.join(QUICKSTART, "go.sum"), path.join(dir, "go.sum"));
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: adopt-go\nruntime: go\nplugins:\n  providers:\n    - name: svc\n      path: ${plugin}\n`,
    );
    fs.writeFileSync(path.join(dir, "main.go"), "package main\n\nfunc main() {}\n");
    return {};
  },
});
