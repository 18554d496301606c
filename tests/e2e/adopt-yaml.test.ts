/**
 * Adopting a workspace made by hand into a Pulumi YAML program (./adopt.ts): `pulumi import --out
 * resources.yaml`, then `svc-import --finish resources.yaml --out Main.yaml` puts the program beside
 * the project's Pulumi.yaml, where the YAML host reads it. (Not `--out Main.yaml`: the import
 * empties that file first, and the YAML host, which reads it during the import, fails on it.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describeAdoption } from "./adopt";

jest.setTimeout(600_000);

describeAdoption({
  name: "YAML",
  program: "Main.yaml",
  generated: "resources.yaml",
  editsInPlace: true,
  project(dir, plugin) {
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: adopt-yaml\nruntime: yaml\nplugins:\n  providers:\n    - name: svc\n      path: ${plugin}\n`,
    );
    return {};
  },
});
