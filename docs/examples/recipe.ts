import * as svc from "pulumi-svc";

const recipe = new svc.Recipe("node-exporter", {
  name: "node-exporter",
  category: "MONITORING",
  description: "Installs the Prometheus node exporter.",
  commands: [{ path: "/bin/sh", args: ["-c", "apt-get install -y prometheus-node-exporter"] }],
  fields: [{ id: "port", label: "Port", type: "NUMBER", required: false }],
});

export const recipeId = recipe.id;
