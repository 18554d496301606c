import * as svc from "pulumi-svc";

new svc.AppTemplate("uptime", {
  name: "uptime-kuma",
  description: "Self-hosted uptime monitoring",
  image: "louislam/uptime-kuma:1.23.13",
  category: "MONITORING",
  ports: [{ name: "web", containerPort: 3001, protocol: "TCP", http: true }],
  mounts: [{ hostPath: "/srv/uptime-kuma", containerPath: "/app/data" }],
});
