import * as svc from "pulumi-svc";

// A template image downloaded from a URL.
const debian = new svc.Image("debian", {
  kind: "TEMPLATE",
  name: "debian-12-custom",
  description: "Debian 12 with our base packages",
  source: { type: "URL", url: "https://images.example.com/debian-12.qcow2" },
  os: { family: "LINUX", name: "Debian 12" },
});

export const imageId = debian.id;
