/**
 * release/go/: a Go module proxy directory (the GOPROXY protocol's files, served as file://) for
 * the SDK module sdk/go at SDK_NAMES.goModule, so `GOPROXY=file://<abs>/release/go,<default>
 * go get <module>@v<version>` works with no replace: `<escaped module>/@v/list`,
 * `v<version>.info`, `.mod` and `.zip`. The zip is written by golang.org/x/mod/zip (./gozip), the
 * go command's own implementation of the format, so `go` verifies and hashes it as any module.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_NAMES } from "../schema";
import { REPO, run, type Step } from "./common";

/** The proxy protocol's case-encoding of a module path: each upper-case letter as `!` and its lower case. */
export const escapeModulePath = (module: string): string => module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

/** When the release's commit was made (the .info's Time), or now outside a git checkout. */
function commitTime(): string {
  try {
    return new Date(run("git", ["log", "-1", "--format=%cI"], { cwd: REPO }).trim()).toISOString().replace(/\.000Z$/, "Z");
  } catch {
    return new Date().toISOString();
  }
}

export const go: Step = async (outDir, version) => {
  const module = SDK_NAMES.goModule;
  const sdk = path.join(REPO, "sdk", "go");
  const goMod = fs.readFileSync(path.join(sdk, "go.mod"), "utf8");
  if (!new RegExp(`^module ${module.replace(/[.]/g, "\\.")}$`, "m").test(goMod))
    throw new Error(`sdk/go/go.mod does not declare module ${module}`);
  const v = `v${version}`;
  const at = path.join(outDir, "go", escapeModulePath(module), "@v");
  fs.mkdirSync(at, { recursive: true });
  const file = (name: string) => path.join(at, name);
  // Each version this directory holds, one a line (a later release adds its own beside).
  const listed = fs.existsSync(file("list")) ? fs.readFileSync(file("list"), "utf8").split("\n").filter(Boolean) : [];
  fs.writeFileSync(file("list"), [...new Set([...listed, v])].join("\n") + "\n");
  fs.writeFileSync(file(`${v}.info`), JSON.stringify({ Version: v, Time: commitTime() }) + "\n");
  fs.writeFileSync(file(`${v}.mod`), goMod);
  run("go", ["run", ".", sdk, module, v, file(`${v}.zip`)], { cwd: path.join(REPO, "scripts", "release", "gozip") });
  return [file("list"), file(`${v}.info`), file(`${v}.mod`), file(`${v}.zip`)];
};
