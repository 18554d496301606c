import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// Lets apps pull private images from ghcr.io.
new svc.RegistryCredential("ghcr", { registry: "ghcr.io", username: "deploy-bot", password: config.requireSecret("ghcrToken") });
