/**
 * Adopting a workspace made by hand into a Python program through the plugin (./adopt.ts): the
 * generated __main__.py on the committed Python SDK (sdk/python), installed where the program's
 * interpreter finds it, in the virtualenv of scripts/ensure-python.sh.
 */
import * as path from "node:path";
import { describeAdoption } from "./adopt";
import { pythonProject } from "./pythonSdk";

jest.setTimeout(600_000);

describeAdoption({
  name: "Python",
  program: "__main__.py",
  project(dir, plugin) {
    return { env: pythonProject(path.dirname(dir), dir, { name: "adopt-python", plugin, program: "" }) };
  },
});
