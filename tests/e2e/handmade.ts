/**
 * A workspace made by hand: objects created directly through the API, as a team's scripts or a
 * person at the console would, tied to each other the way the API ties them (instances on VPCs,
 * rules and disks on instances, an address attached, a cluster with nodes, a service using a
 * secret, a load balancer with members, a BGP session with prefixes). What svc-import must bring
 * under Pulumi: the adoption tests build it once per emulator and compare every stack to it.
 */
import type { TestApi, TestEmulator } from "pulumi-svc-emulator/testing";
import { ed25519 } from "../support/sshKeys";

/** What was made, by the name a person would call it (ids as the API answers them). */
export interface Handmade {
  ids: Record<string, string>;
  /** The values of write-only and secret fields, which no read gives back: what the adopting stack sets as config. */
  secrets: {
    registryPassword: string;
    secretData: Record<string, string>;
    bgpPassword: string;
    serviceEnvironment: Record<string, string>;
  };
  /** How many objects were made, by kind (the package's kind names); what the API made on its own is not counted. */
  counts: Record<string, number>;
}

const id = (body: { id?: unknown }) => String(body.id);

async function ok<T = { id: string }>(what: string, call: Promise<{ status: number; text: string; body: T }>): Promise<T> {
  const res = await call;
  if (res.status >= 300) throw new Error(`making ${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

/**
 * Makes the workspace: 32 objects of 18 kinds, with the user's token, but for the load balancer,
 * which only an operator creates (spec part 3). Returns their ids. The emulator's workflows should be
 * quick (workflowMs ~30-150).
 */
export async function makeHandmadeWorkspace(t: TestEmulator): Promise<Handmade> {
  const api: TestApi = t.api;
  const ws = t.workspaceId;
  const w = (path: string) => `/v1/workspaces/${ws}${path}`;
  const ids: Record<string, string> = {};
  const done = async (workflow: { id?: unknown; workflow?: { id: unknown } }) => {
    const wf = workflow.workflow ?? workflow;
    const state = await t.waitWorkflow(String(wf.id), 30_000);
    if (state !== "COMPLETED") throw new Error(`workflow ${String(wf.id)} ended ${state}`);
  };

  const plan = (await ok<{ items: Array<{ id: string }> }>("plan lookup", api.get("/v1/plans", { name: "lightning-1" }))).items[0];
  ids.appNet = id(await ok("vpc app-net", api.post(w("/vpcs"), { name: "app-net", description: "web tier", range: "10.20.0.0/16" })));
  ids.dbNet = id(await ok("vpc db-net", api.post(w("/vpcs"), { name: "db-net", description: "databases", range: "10.30.0.0/16" })));

  // Two web instances join app-net in their create body; the database joins both VPCs afterwards.
  const instance = async (name: string, vpcs: string[]) => {
    const answer = await ok<{ workflow: { id: string }; resource: { id: string } }>(
      `instance ${name}`,
      api.post(w("/instances"), { type: "PLAN", name, region: "NA_01", plan: BigInt(plan.id), vpcs: vpcs.map(BigInt) }),
    );
    await done(answer);
    return id(answer.resource);
  };
  ids.web1 = await instance("web-1", [ids.appNet]);
  ids.web2 = await instance("web-2", [ids.appNet]);
  ids.db1 = await instance("db-1", []);
  for (const vpc of [ids.dbNet, ids.appNet]) await ok("vpc attach", api.post(`/v1/instances/${ids.db1}/vpcs`, { vpc: BigInt(vpc) }));

  const rule = async (instanceId: string, body: Record<string, unknown>) => {
    const answer = await ok<{ workflow: { id: string }; resource: { id: string } }>(
      "firewall rule",
      api.post(`/v1/instances/${instanceId}/firewall-rules`, body),
    );
    await done(answer);
    return id(answer.resource);
  };
  ids.web1Http = await rule(ids.web1, { type: "IPv4", protocol: "TCP", action: "ACCEPT", port_start: 80, description: "http" });
  ids.web1Https = await rule(ids.web1, { type: "IPv4", protocol: "TCP", action: "ACCEPT", port_start: 443, priority: 10 });
  ids.db1Pg = await rule(ids.db1, { type: "IPv4", protocol: "TCP", action: "ACCEPT", port_start: 5432, remote: "10.20.0.0/16" });

  const disk = async (name: string, size: number) => {
    const answer = await ok<{ workflow: { id: string }; resource: { id: string } }>(
      `disk ${name}`,
      api.post(w("/disks"), { name, size, backend: "LOCAL", region: "NA_01" }),
    );
    await done(answer);
    return id(answer.resource);
  };
  ids.pgData = await disk("pg-data", 20 * 1024 ** 3);
  await done(await ok("disk attach", api.post(`/v1/disks/${ids.pgData}/attach`, { instance_id: BigInt(ids.db1) })));
  ids.scratch = await disk("scratch", 5 * 1024 ** 3);

  // An address of the workspace's own, attached to web-1; another kept free.
  ids.publicIp = id(await ok("floating ip", api.post(w("/ips"), { family: "IPv4", ddos: true })));
  await ok("attach ip", api.post("/v1/commands/attach-ip", { ip: BigInt(ids.publicIp), instance: BigInt(ids.web1) }));
  ids.spareIp = id(await ok("floating ip", api.post(w("/ips"), { family: "IPv6" })));

  // Kubernetes: the cluster, both web instances as nodes, a secret and a service that uses it.
  await done(await ok("k3s cluster", api.post(w("/k3s"))));
  ids.cluster = id(await ok("k3s cluster read", api.get(w("/k3s"))));
  for (const [key, instanceId] of [
    ["web1Node", ids.web1],
    ["web2Node", ids.web2],
  ] as const) {
    await done(await ok("k3s node", api.post(w("/k3s/nodes"), { instance_id: BigInt(instanceId) })));
    const view = await ok<{ node: { id: string } }>("k3s node read", api.get(`/v1/instances/${instanceId}/k3s`));
    ids[key] = id(view.node);
  }
  const secretData = { DB_PASSWORD: "pg-pass-9", API_KEY: "key-7f3" };
  ids.appSecret = id(await ok("k3s secret", api.post(w("/k3s/secrets"), { name: "app-secret", data: secretData })));
  const serviceEnvironment = { LOG_LEVEL: "info" };
  await done(
    await ok(
      "k3s service",
      api.post(w("/k3s/services"), {
        name: "shop",
        image: "ghcr.io/acme/shop:1.4",
        mode: "PINNED",
        target_instances: [BigInt(ids.web1), BigInt(ids.web2)],
        ports: [{ host_port: 8080, container_port: 80, protocol: "TCP", http: true }],
        environment: serviceEnvironment,
        secret_refs: ["app-secret"],
      }),
    ),
  );
  const services = await ok<{ items: Array<{ service: { id: string } }> }>("k3s services", api.get(w("/k3s/services"), { name: "shop" }));
  ids.shop = id(services.items[0].service);

  // Access: two SSH keys and a registry credential.
  ids.opsKey = id(await ok("ssh key", api.post(w("/ssh"), { name: "ops-laptop", public_key: ed25519(11, "ops@laptop") })));
  ids.ciKey = id(await ok("ssh key", api.post(w("/ssh"), { name: "ci-runner", public_key: ed25519(12, "ci@runner") })));
  const registryPassword = "ghp_emulatorToken";
  ids.ghcr = id(
    await ok("registry credential", api.post(w("/registries"), { registry: "ghcr.io", username: "octo-bot", password: registryPassword })),
  );

  // BGP: the session on db-1, two prefixes.
  const bgpPassword = "bgp-session-7";
  const bgp = await ok<{ data: { id: string } }>(
    "bgp",
    api.patch(w("/bgp"), { asn: 64512, password: bgpPassword, instance_id: BigInt(ids.db1), max_prefixes: 4 }),
  );
  ids.bgp = id(bgp.data);
  const prefix = (p: string, community: string) =>
    ok("bgp prefix", api.post(w("/bgp/prefixes"), { prefix: p, source: "MANUAL", enabled: true, community }));
  ids.prefixA = id(await prefix("198.51.100.0/24", "DEFAULT"));
  ids.prefixB = id(await prefix("203.0.113.0/24", "PROTECTED"));

  // A load balancer (operators create them) in front of both web instances.
  ids.lb = id(await ok("load balancer", t.staff.post("/v1/net-lbs", { name: "shop-lb", address: "192.0.2.10", owner: BigInt(ws) })));
  for (const instanceId of [ids.web1, ids.web2]) await ok("lb member", api.put(w(`/net-lbs/${ids.lb}/instances/${instanceId}`)));

  // A recipe of the workspace's own.
  ids.recipe = id(
    await ok(
      "recipe",
      api.post(w("/recipes"), {
        name: "harden",
        category: "TOOLS",
        description: "Baseline hardening",
        commands: [{ path: "/opt/harden.sh", args: ["--strict"] }],
      }),
    ),
  );

  const counts = {
    Vpc: 2,
    Instance: 3,
    VpcAttachment: 4,
    FirewallRule: 3,
    Disk: 2,
    FloatingIp: 2,
    FloatingIpAttachment: 1,
    K3sCluster: 1,
    K3sNode: 2,
    K3sSecret: 1,
    K3sService: 1,
    SshKey: 2,
    RegistryCredential: 1,
    BgpConfig: 1,
    BgpPrefix: 2,
    NetLoadBalancer: 1,
    NetLoadBalancerMember: 2,
    Recipe: 1,
  };
  return { ids, counts, secrets: { registryPassword, secretData, bgpPassword, serviceEnvironment } };
}
