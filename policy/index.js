// The pack's entry point: the compiled pack of the enclosing package (built from policy/pack.ts),
// so the same files serve in the repository and in an installed tarball. @pulumi/policy reads the
// pack's version from the package.json of the working directory: pulumi-analyzer-policy (3.163)
// and a language host of the engine's release start the pack here, an older host in the program's
// directory (scripts/ensure-pulumi.sh), so the pack makes its own directory the working one.
process.chdir(__dirname);
require("../dist/policy/pack");
