import * as svc from "pulumi-svc";

const image = svc.getImageOutput({ name: "Ubuntu 24.04 LTS" });

export const imageId = image.id;
