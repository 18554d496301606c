import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const cluster = new svc.K3sCluster("cluster", {});

// Referenced by a K3sService through secretRefs: [secret.name]. Always stored as a secret.
const secret = new svc.K3sSecret(
  "app-secret",
  { name: "app-secret", data: { DATABASE_PASSWORD: config.requireSecret("dbPassword") } },
  { dependsOn: [cluster] },
);

export const secretName = secret.name;
