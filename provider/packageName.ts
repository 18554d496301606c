/**
 * The package's own name, read from its package.json (found upward from this file, in the
 * sources and in dist alike), so that the `__provider` text loads the provider under whatever name
 * the package was installed as: a repack as `@acme/pulumi-svc` works unchanged.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The directory of the nearest package.json above `from`. */
function packageRootAbove(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The package's root directory (where package.json and schema.json are). */
export const PACKAGE_ROOT = packageRootAbove(__dirname);

const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string; version: string };

const PACKAGE_NAME = manifest.name;
export const PACKAGE_VERSION = manifest.version;

/**
 * The stable entry point every resource's state requires in the provider process (the package's
 * `exports` map sends it to dist/dynamic/entry.js; `./dist/resources/registry` too, the
 * path states of packages before 0.1.0 named). Documented; never a dist path.
 */
export const PROVIDER_ENTRY = `${PACKAGE_NAME}/provider`;
