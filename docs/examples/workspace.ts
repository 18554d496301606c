import * as svc from "pulumi-svc";

const team = new svc.Workspace("team", { name: "platform-team", disableSshPassword: true });

export const workspaceId = team.id;
