import * as svc from "pulumi-svc";

new svc.SshKey("admin", {
  name: "admin-key",
  publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl admin@example.com",
});
