// The security pack's entry point: the compiled pack of the enclosing package (built from
// policy/security/pack.ts), so the same files serve in the repository and in an installed tarball.
// @pulumi/policy reads the pack's version from the package.json of the working directory, which is
// not always this one when the engine starts the pack (policy/index.js), so the pack makes it so.
process.chdir(__dirname);
require("../../dist/policy/security/pack");
