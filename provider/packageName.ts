/**
 * The package's own name, read from its package.json (found upward from this file, in the
 * sources and in dist alike), so that the serialized shim loads the provider under whatever name
 * the package was installed as: a repack as `@acme/pulumi-svc` works unchanged.
 */
import * as fs from "node:fs";
import * as path from "node:path";

function ownPackageName(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name: string }).name;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_NAME = ownPackageName(__dirname);

/**
 * The stable entry point every resource's state requires in the provider process (the package's
 * `exports` map sends it to dist/resources/registry.js). Documented; never a dist path.
 */
export const PROVIDER_ENTRY = `${PACKAGE_NAME}/provider`;
