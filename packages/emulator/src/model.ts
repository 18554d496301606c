/**
 * Row types shared across areas of the API: accounts and access (part 1), the compute
 * catalogue and instances (part 2), and the bookkeeping every area uses (workflows, audit
 * entries, mail, billing subjects). Area-specific rows are declared beside their routes.
 */
import type { Row } from "./core/store";

export const ROLES = ["VIEWER", "EDITOR", "ADMINISTRATOR", "OWNER"] as const;
export type Role = (typeof ROLES)[number];

export const GRANT_KINDS = ["WORKSPACE", "INSTANCE", "DEDIBOX", "APP", "IMAGE", "NET_BALANCER", "DISK", "FLOATING_IP"] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];
export type GrantLevel = "NONE" | "READ" | "WRITE";
export type Grants = Partial<Record<GrantKind, "READ" | "WRITE">>;

export const RESOURCE_STATES = ["PENDING", "AVAILABLE", "FAILED", "SUSPENDED", "DELETING", "UNPLACED"] as const;
export type ResourceState = (typeof RESOURCE_STATES)[number];

export interface UserRow extends Row {
  name: string;
  email: string;
  passwordHash: string;
  flags: string[];
  /** Staff (operator) accounts pass "Administrator only" and "operator" checks. */
  staff: boolean;
  locked: boolean;
  deactivated: boolean;
  /** TOTP secret (base32) and emergency reset token; `active` once PUT /totp confirmed it. */
  totp: { secret: string; reset: string; active: boolean } | null;
  /** A changed email waiting for its confirmation link. */
  pendingEmail: string | null;
  created: string;
}

export interface Quota {
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

const GiB = 1024 ** 3;

/** Quota of a new workspace (values not shown in the spec; chosen here). */
export const DEFAULT_QUOTA: Quota = {
  max_instances: 25,
  max_ssh_keys: 20,
  max_vpcs: 10,
  max_floating_ipv4: 20,
  max_floating_ipv6: 20,
  max_floating_ips: 30,
  max_storage_bytes: 4096 * GiB,
  iso_count: 5,
  iso_storage_bytes: 50 * GiB,
  firewall_rules_per_ip: 50,
};

export interface WorkspaceRow extends Row {
  name: string;
  ownerId: string;
  flags: string[];
  mfaRequired: boolean;
  disableSshPassword: boolean;
  /** Private-cloud workspaces own nodes and list them under /workspaces/{wid}/nodes. */
  privateCloud: boolean;
  quota: Quota;
  created: string;
}

export interface MembershipRow extends Row {
  workspaceId: string;
  userId: string;
  role: Role;
  /** The invite this membership came from, if any (deleting the invite removes the member). */
  inviteId: string | null;
}

export type TokenOrigin = "SESSION" | "API" | "SYSTEM" | "OAUTH";
export type TokenSubject = "USER" | "WORKSPACE" | "RESOURCE";

export interface TokenRow extends Row {
  name: string;
  /** sha256 of the plaintext code: only a hash is stored (part 1, Token object). */
  codeHash: string;
  origin: TokenOrigin;
  subject: TokenSubject;
  /** USER: the user; WORKSPACE: the workspace; RESOURCE: the instance, dedibox or app. */
  subjectId: string;
  /** RESOURCE tokens: which kind the subject is. */
  subjectKind: "INSTANCE" | "DEDIBOX" | "APP" | null;
  workspaceId: string | null;
  grants: Grants;
  /** Owning user (USER subject) or, for workspace/resource tokens, null. */
  userId: string | null;
  createdById: string;
  created: string;
  expires: string | null;
  lastIp: string | null;
  lastUsed: string | null;
}

export type WorkflowState = "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "ABORTED" | "TIMED_OUT";
export type WorkflowOutcome = "COMPLETED" | "FAILED" | "ABORTED" | "TIMED_OUT" | "STUCK";

export interface WorkflowRow extends Row {
  name: string;
  state: WorkflowState;
  workspaceId: string | null;
  resource: { kind: string; id: string } | null;
  created: number;
  /** When the worker picks it up (QUEUED -> RUNNING). */
  startsAt: number;
  /** When it ends (RUNNING -> outcome). Never, for a STUCK fault. */
  endsAt: number;
  outcome: WorkflowOutcome;
  /** Named effect applied on success / on failure (see core/workflows.ts). */
  onComplete: string | null;
  onFail: string | null;
  args: Record<string, unknown>;
}

export interface AuditRow extends Row {
  workspaceId: string | null;
  actorId: string | null;
  action: string;
  target: { kind: string; id: string } | null;
  created: string;
}

export type MailKind = "VERIFY_EMAIL" | "RESET_PASSWORD" | "LOGIN_NOTIFICATION" | "INVITE" | "CONFIRM_EMAIL_CHANGE" | "ACCOUNT_EXISTS";

/** The outbox: mail the API "sends", readable by tests at GET /_emulator/mail. */
export interface MailRow extends Row {
  to: string;
  kind: MailKind;
  /** The code or link token the mail carries. */
  code: string | null;
  sent: string;
}

export interface NodeRow extends Row {
  name: string;
  ownerWorkspaceId: string | null;
  group: string;
  region: string;
  maxMemory: number;
  cores: number;
  flags: string[];
}

export interface PlanRow extends Row {
  name: string;
  group: "LIGHTNING" | "RYZEN" | "DEDICATED";
  cpu: number;
  memory: number;
  diskSize: number;
  upload: number;
  download: number;
  rate: number;
  disabled: boolean;
  backupPlan: { id: string; name: string } | null;
  ioLimits: { read_bytes_sec: number; write_bytes_sec: number; read_iops: number; write_iops: number } | null;
}

export type ImageKind = "TEMPLATE" | "BACKUP" | "ISO";

export interface ImageRow extends Row {
  workspaceId: string | null;
  name: string;
  description: string | null;
  group: string | null;
  kind: ImageKind;
  source: {
    type: "URL" | "BACKUP" | "INSTANCE" | "UPLOAD" | "PLATFORM";
    url?: string;
    backup_id?: string;
    instance_id?: string;
    disk_id?: string;
    size_bytes?: number;
  };
  os: { family: "LINUX" | "WINDOWS" | "BSD"; name: string | null } | null;
  size: number;
  uefi: boolean;
  official: boolean;
  deprecated: boolean;
  state: ResourceState;
  created: string;
  /** ISO upload: the single-use signed URL token and what it accepts. */
  upload: { token: string; expiresAt: string; maxSizeBytes: number; used: boolean; received: number } | null;
}

export interface InstanceRow extends Row {
  workspaceId: string;
  name: string;
  type: "PLAN" | "CUSTOM";
  planId: string | null;
  group: string;
  cpu: number;
  memoryBytes: number;
  bandwidth: { upload_bytes_sec: number; download_bytes_sec: number };
  ioLimits: { read_bytes_sec: number; write_bytes_sec: number; read_iops: number; write_iops: number } | null;
  region: string;
  nodeId: string;
  imageId: string | null;
  isoId: string | null;
  boot: "DISK" | "ISO";
  uefi: boolean;
  secureBoot: boolean;
  attachVirtioCdb: boolean;
  syncHostname: boolean;
  firewallEnabled: boolean;
  osName: string | null;
  hostname: string;
  cloudInit: string | null;
  disableCloudInit: boolean;
  state: ResourceState;
  online: boolean;
  locked: boolean;
  pendingUpgrades: boolean;
  /** Hardware staged by upgrade-instance on an online instance, applied at next restart or apply-upgrades. */
  staged: (Partial<Pick<InstanceRow, "planId" | "cpu" | "memoryBytes" | "bandwidth" | "ioLimits">> & { bootDiskSize?: number }) | null;
  /** Set by terminate with immediate false: deletion time. */
  terminationScheduledAt: string | null;
  networkSuspended: boolean;
  created: string;
}

export interface DiskRow extends Row {
  workspaceId: string;
  name: string;
  backend: "LOCAL" | "CEPH";
  boot: boolean;
  size: number;
  instanceId: string | null;
  state: ResourceState;
  region: string;
  created: string;
}

export interface FloatingIpRow extends Row {
  workspaceId: string;
  family: "IPv4" | "IPv6";
  address: string;
  ddos: boolean;
  protected: boolean;
  instanceId: string | null;
  /** INSTANCE: allocated by instance creation and released with it; ALLOCATED: allocated on its own, only detached. */
  origin: "INSTANCE" | "ALLOCATED";
  created: string;
}

export interface VpcRow extends Row {
  workspaceId: string;
  name: string;
  description: string;
  /** Normalised to the network address (spec part 3, VPC). */
  range: string;
  vlan: number;
  created: string;
}

/** An instance's membership of a VPC: one NIC and one private address from the range. */
export interface VpcMemberRow extends Row {
  vpcId: string;
  instanceId: string;
  ip: string;
  created: string;
  /** The VPC's workspace, so the inventory places a member without a lookup (attach and an instance's create body alike). */
  workspaceId: string;
}

export interface NetLbRow extends Row {
  workspaceId: string;
  name: string;
  address: string;
  created: string;
}

/** Membership is asynchronous (PUT/DELETE answer 202): PENDING until the change applies. */
export interface NetLbMemberRow extends Row {
  lbId: string;
  instanceId: string;
  state: "PENDING" | "AVAILABLE" | "DELETING";
}

export type RateType = "CPU" | "MEMORY" | "STORAGE" | "BANDWIDTH" | "IP";

/** One effective-dated rate-card entry (spec part 3, Rate view). */
export interface RateCardRow extends Row {
  type: RateType;
  region: string;
  serviceGroup: string | null;
  cpuModel: string | null;
  storageBacking: string | null;
  direction: "UPLOAD" | "DOWNLOAD" | null;
  family: "IPv4" | "IPv6" | null;
  ddos: boolean | null;
  unitRate: number;
  effectiveFrom: string;
}

/** Something that costs money while it exists (used by billing usage). */
export interface BillingSubjectRow extends Row {
  workspaceId: string;
  resourceId: string;
  resourceKind: string;
  /** Name snapshot from when the subject was created (part 3, Resource usage). */
  resourceName: string;
  hourlyRate: number;
  startedAt: number;
  endedAt: number | null;
}

declare module "./core/store" {
  interface Tables {
    users: UserRow;
    workspaces: WorkspaceRow;
    memberships: MembershipRow;
    tokens: TokenRow;
    workflows: WorkflowRow;
    audit: AuditRow;
    mail: MailRow;
    nodes: NodeRow;
    plans: PlanRow;
    images: ImageRow;
    instances: InstanceRow;
    disks: DiskRow;
    floatingIps: FloatingIpRow;
    vpcs: VpcRow;
    vpcMembers: VpcMemberRow;
    netLbs: NetLbRow;
    netLbMembers: NetLbMemberRow;
    rateCards: RateCardRow;
    billingSubjects: BillingSubjectRow;
  }
}
