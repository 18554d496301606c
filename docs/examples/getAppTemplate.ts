import * as svc from "pulumi-svc";

const template = svc.getAppTemplateOutput({ name: "uptime-kuma" });

export const templateId = template.id;
export const templateImage = template.image;
