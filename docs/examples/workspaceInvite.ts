import * as svc from "pulumi-svc";

new svc.WorkspaceInvite("alice", { email: "alice@example.com", accessLevel: "EDITOR" });
