import * as svc from "pulumi-svc";

// A CI token that reads the workspace and manages instances; its code is a secret output.
const ci = new svc.ApiToken("ci", { name: "ci-deploy", grants: { WORKSPACE: "READ", INSTANCE: "WRITE" }, expiresInDays: 90 });

export const ciToken = ci.code;
