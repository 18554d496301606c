import * as svc from "pulumi-svc";

// The workspace's own available Linux images.
const images = svc.getImagesOutput({ official: false, osFamily: "LINUX", state: ["AVAILABLE"] });

export const imageNames = images.apply((list) => list.map((i) => i.name));
