/**
 * Access lookups: a workspace's quota and topology (spec part 1, Workspaces; Workspace quota;
 * Workspace topology).
 */
import { idOf, numberOf } from "../../provider/client/wire";
import { lookupClient, workspaceOf } from "./common";
import type { Integer, WideInteger } from "../../provider/fields/integer";

// ---------------------------------------------------------------------------------------------
// Quota (GET /v1/workspaces/{wid}/quota)

export interface WorkspaceQuota {
  maxInstances: Integer;
  maxSshKeys: Integer;
  maxVpcs: Integer;
  maxFloatingIpv4: Integer;
  maxFloatingIpv6: Integer;
  /** Total floating IP limit. */
  maxFloatingIps: Integer;
  /** Total disk storage limit, bytes. */
  maxStorageBytes: WideInteger;
  /** Maximum custom ISOs. */
  isoCount: Integer;
  /** Total ISO storage limit, bytes. */
  isoStorageBytes: WideInteger;
  /** Maximum firewall rules per floating IP. */
  firewallRulesPerIp: Integer;
}

export interface GetWorkspaceQuotaArgs {
  /** Default: svc:workspaceId / SVC_WORKSPACE_ID. */
  workspaceId?: string;
}

interface ApiQuota {
  max_instances: number;
  max_ssh_keys: number;
  max_vpcs: number;
  max_floating_ipv4: number;
  max_floating_ipv6: number;
  max_floating_ips: number;
  max_storage_bytes: number;
  iso_count: number;
  iso_storage_bytes: number;
  firewall_rules_per_ip: number;
}

/** The workspace's quota (GET /v1/workspaces/{wid}/quota): how many instances, SSH keys, VPCs, floating IPs, ISOs and firewall rules per IP it may hold, and how much storage. */
export async function getWorkspaceQuota(args: GetWorkspaceQuotaArgs = {}): Promise<WorkspaceQuota> {
  const q = await lookupClient().client.get<ApiQuota>(`/v1/workspaces/${workspaceOf(args)}/quota`);
  return {
    maxInstances: numberOf(q.max_instances)!,
    maxSshKeys: numberOf(q.max_ssh_keys)!,
    maxVpcs: numberOf(q.max_vpcs)!,
    maxFloatingIpv4: numberOf(q.max_floating_ipv4)!,
    maxFloatingIpv6: numberOf(q.max_floating_ipv6)!,
    maxFloatingIps: numberOf(q.max_floating_ips)!,
    maxStorageBytes: numberOf(q.max_storage_bytes)!,
    isoCount: numberOf(q.iso_count)!,
    isoStorageBytes: numberOf(q.iso_storage_bytes)!,
    firewallRulesPerIp: numberOf(q.firewall_rules_per_ip)!,
  };
}

// ---------------------------------------------------------------------------------------------
// Topology (GET /v1/workspaces/{wid}/topology)

export interface WorkspaceTopology {
  /** Slim instance views. */
  instances: Array<{ id: string; name: string; online: boolean; plan: { id: string; name: string } | null; state: string }>;
  /** Floating IPs. */
  ips: Array<{ id: string; instanceId: string | null; address: string; protected: boolean }>;
  /** VPCs, as the API reports them (element fields are not documented). */
  vpcs: Array<Record<string, unknown>>;
  /** Dediboxes, as the API reports them (element fields are not documented). */
  dediboxes: Array<Record<string, unknown>>;
  /** Network load balancers with member associations, as the API reports them (element fields are not documented). */
  netBalancers: Array<Record<string, unknown>>;
}

export interface GetWorkspaceTopologyArgs {
  /** Default: svc:workspaceId / SVC_WORKSPACE_ID. */
  workspaceId?: string;
}

interface ApiTopology {
  instances?: Array<{ id: string; name: string; online: boolean; plan: { id: string; name: string } | null; state: string }>;
  ips?: Array<{ id: string; instance_id: string | null; address: string; protected: boolean }>;
  vpcs?: Array<Record<string, unknown>>;
  dediboxes?: Array<Record<string, unknown>>;
  net_balancers?: Array<Record<string, unknown>>;
}

/** The workspace's topology (GET /v1/workspaces/{wid}/topology): slim views of its instances, floating IPs, VPCs, dediboxes and network load balancers. */
export async function getWorkspaceTopology(args: GetWorkspaceTopologyArgs = {}): Promise<WorkspaceTopology> {
  const t = await lookupClient().client.get<ApiTopology>(`/v1/workspaces/${workspaceOf(args)}/topology`);
  return {
    instances: (t.instances ?? []).map((i) => ({
      id: idOf(i.id)!,
      name: i.name,
      online: !!i.online,
      plan: i.plan ? { id: idOf(i.plan.id)!, name: i.plan.name } : null,
      state: i.state,
    })),
    ips: (t.ips ?? []).map((ip) => ({
      id: idOf(ip.id)!,
      instanceId: idOf(ip.instance_id),
      address: ip.address,
      protected: !!ip.protected,
    })),
    vpcs: t.vpcs ?? [],
    dediboxes: t.dediboxes ?? [],
    netBalancers: t.net_balancers ?? [],
  };
}
