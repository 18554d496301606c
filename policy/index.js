// The pack's entry point for `pulumi-analyzer-policy`: the compiled pack of the enclosing package
// (built from policy/pack.ts), so the same files serve in the repository and in an installed tarball.
require("../dist/policy/pack");
