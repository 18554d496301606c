import * as svc from "pulumi-svc";

const templates = svc.getAppTemplatesOutput({ category: "MONITORING" });

export const templateNames = templates.apply((list) => list.map((t) => t.name));
