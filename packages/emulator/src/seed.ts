/**
 * The seeded catalogue (issue: "What it serves"): regions and nodes with flags, plans in each
 * group (one disabled), platform images (Linux, Windows and BSD templates; an ISO), rate cards,
 * one user who owns one workspace, and a staff operator (with a private-cloud workspace that
 * owns the PRIVATE_CLOUD nodes). Areas add their own catalogue (app templates, recipes) through
 * their `seed` hook. Everything here is deterministic for a given --seed.
 */
import { ALL_WRITE_GRANTS, hashSecret, newTokenCode } from "./core/auth";
import type { SeedCatalog } from "./core/domain";
import type { Services } from "./core/services";
import type { Row } from "./core/store";
import { DEFAULT_QUOTA, type ImageRow, type NodeRow, type PlanRow, type RateCardRow } from "./model";
import { allDomains } from "./routes";

export interface Bootstrap {
  /** API token of the bootstrap user (USER subject, full grants). */
  token: string;
  /** SYSTEM token of the staff operator, for administrator-only and operator endpoints. */
  staffToken: string;
  /** The workspace the bootstrap user owns. */
  workspaceId: string;
  userId: string;
  /** Sign-in for the bootstrap user (login flow tests). */
  email: string;
  password: string;
}

/** Kept in the state file so a restarted emulator prints the same credentials. */
interface BootstrapRow extends Row, Bootstrap {}

declare module "./core/store" {
  interface Tables {
    bootstrap: BootstrapRow;
  }
}

export const REGIONS = ["NA_01", "EU_01", "PRIVATE_CLOUD"] as const;

const GiB = 1024 ** 3;
const MB_S = 1_000_000;

export function seedStore(services: Services): Bootstrap {
  const { store, clock } = services;
  const now = clock.iso();
  const seedRow = <T extends Row>(row: Omit<T, "id" | "seed">): T => ({ ...(row as object), id: store.newId(), seed: true }) as T;

  // Accounts.
  const password = "demo-password-1";
  const user = store.t.users.insert(
    seedRow({
      name: "Demo User",
      email: "demo@example.com",
      passwordHash: hashSecret(password),
      flags: ["EMAIL_VERIFIED"],
      staff: false,
      locked: false,
      deactivated: false,
      totp: null,
      pendingEmail: null,
      created: now,
    }),
  );
  const staff = store.t.users.insert(
    seedRow({
      name: "Operator",
      email: "operator@example.com",
      passwordHash: hashSecret("operator-password-1"),
      flags: ["EMAIL_VERIFIED", "STAFF"],
      staff: true,
      locked: false,
      deactivated: false,
      totp: null,
      pendingEmail: null,
      created: now,
    }),
  );
  const workspace = store.t.workspaces.insert(
    seedRow({
      name: "demo-workspace",
      ownerId: user.id,
      flags: [],
      mfaRequired: false,
      disableSshPassword: false,
      privateCloud: false,
      quota: { ...DEFAULT_QUOTA },
      created: now,
    }),
  );
  const privateCloud = store.t.workspaces.insert(
    seedRow({
      name: "private-cloud",
      ownerId: staff.id,
      flags: ["PRIVATE_CLOUD"],
      mfaRequired: false,
      disableSshPassword: false,
      privateCloud: true,
      quota: { ...DEFAULT_QUOTA },
      created: now,
    }),
  );
  store.t.memberships.insert(seedRow({ workspaceId: workspace.id, userId: user.id, role: "OWNER", inviteId: null }));
  store.t.memberships.insert(seedRow({ workspaceId: privateCloud.id, userId: staff.id, role: "OWNER", inviteId: null }));

  const token = newTokenCode(services);
  const staffToken = newTokenCode(services);
  store.t.tokens.insert(
    seedRow({
      name: "bootstrap",
      codeHash: hashSecret(token),
      origin: "API",
      subject: "USER",
      subjectId: user.id,
      subjectKind: null,
      workspaceId: null,
      grants: { ...ALL_WRITE_GRANTS },
      userId: user.id,
      createdById: user.id,
      created: now,
      expires: null,
      lastIp: null,
      lastUsed: null,
    }),
  );
  store.t.tokens.insert(
    seedRow({
      name: "operator",
      codeHash: hashSecret(staffToken),
      origin: "SYSTEM",
      subject: "USER",
      subjectId: staff.id,
      subjectKind: null,
      workspaceId: null,
      grants: { ...ALL_WRITE_GRANTS },
      userId: staff.id,
      createdById: staff.id,
      created: now,
      expires: null,
      lastIp: null,
      lastUsed: null,
    }),
  );

  // Nodes: CEPH marks nodes in the Ceph cluster (CEPH-backed disks need one in the region).
  const nodes: Omit<NodeRow, "id" | "seed">[] = [
    {
      name: "na01-l1.svc.internal",
      ownerWorkspaceId: null,
      group: "LIGHTNING",
      region: "NA_01",
      maxMemory: 256 * GiB,
      cores: 64,
      flags: ["CEPH"],
    },
    {
      name: "na01-l2.svc.internal",
      ownerWorkspaceId: null,
      group: "LIGHTNING",
      region: "NA_01",
      maxMemory: 256 * GiB,
      cores: 64,
      flags: ["CEPH"],
    },
    { name: "na01-r1.svc.internal", ownerWorkspaceId: null, group: "RYZEN", region: "NA_01", maxMemory: 128 * GiB, cores: 32, flags: [] },
    {
      name: "na01-d1.svc.internal",
      ownerWorkspaceId: null,
      group: "DEDICATED",
      region: "NA_01",
      maxMemory: 512 * GiB,
      cores: 128,
      flags: ["CEPH"],
    },
    {
      name: "eu01-l1.svc.internal",
      ownerWorkspaceId: null,
      group: "LIGHTNING",
      region: "EU_01",
      maxMemory: 256 * GiB,
      cores: 64,
      flags: ["CEPH"],
    },
    { name: "eu01-r1.svc.internal", ownerWorkspaceId: null, group: "RYZEN", region: "EU_01", maxMemory: 128 * GiB, cores: 32, flags: [] },
    {
      name: "pc-01.private.internal",
      ownerWorkspaceId: privateCloud.id,
      group: "DEDICATED",
      region: "PRIVATE_CLOUD",
      maxMemory: 384 * GiB,
      cores: 96,
      flags: [],
    },
  ];
  for (const n of nodes) store.t.nodes.insert(seedRow(n));

  // Plans: rate is micro-USD per hour.
  const io = { read_bytes_sec: 500 * MB_S, write_bytes_sec: 250 * MB_S, read_iops: 20_000, write_iops: 10_000 };
  const backup = { id: store.newId(), name: "daily-7" };
  const plans: Omit<PlanRow, "id" | "seed">[] = [
    {
      name: "lightning-1",
      group: "LIGHTNING",
      cpu: 1,
      memory: 1 * GiB,
      diskSize: 25 * GiB,
      upload: 100 * MB_S,
      download: 100 * MB_S,
      rate: 6_000,
      disabled: false,
      backupPlan: null,
      ioLimits: io,
    },
    {
      name: "lightning-2",
      group: "LIGHTNING",
      cpu: 2,
      memory: 4 * GiB,
      diskSize: 50 * GiB,
      upload: 200 * MB_S,
      download: 200 * MB_S,
      rate: 18_000,
      disabled: false,
      backupPlan: backup,
      ioLimits: io,
    },
    {
      name: "lightning-4",
      group: "LIGHTNING",
      cpu: 4,
      memory: 8 * GiB,
      diskSize: 100 * GiB,
      upload: 400 * MB_S,
      download: 400 * MB_S,
      rate: 36_000,
      disabled: false,
      backupPlan: backup,
      ioLimits: io,
    },
    {
      name: "lightning-legacy",
      group: "LIGHTNING",
      cpu: 1,
      memory: 512 * 1024 ** 2,
      diskSize: 10 * GiB,
      upload: 50 * MB_S,
      download: 50 * MB_S,
      rate: 3_000,
      disabled: true,
      backupPlan: null,
      ioLimits: null,
    },
    {
      name: "ryzen-2",
      group: "RYZEN",
      cpu: 2,
      memory: 8 * GiB,
      diskSize: 80 * GiB,
      upload: 500 * MB_S,
      download: 500 * MB_S,
      rate: 30_000,
      disabled: false,
      backupPlan: backup,
      ioLimits: io,
    },
    {
      name: "ryzen-8",
      group: "RYZEN",
      cpu: 8,
      memory: 32 * GiB,
      diskSize: 320 * GiB,
      upload: 1000 * MB_S,
      download: 1000 * MB_S,
      rate: 110_000,
      disabled: false,
      backupPlan: backup,
      ioLimits: io,
    },
    {
      name: "dedicated-16",
      group: "DEDICATED",
      cpu: 16,
      memory: 64 * GiB,
      diskSize: 960 * GiB,
      upload: 1250 * MB_S,
      download: 1250 * MB_S,
      rate: 250_000,
      disabled: false,
      backupPlan: backup,
      ioLimits: null,
    },
    {
      name: "dedicated-64",
      group: "DEDICATED",
      cpu: 64,
      memory: 256 * GiB,
      diskSize: 3840 * GiB,
      upload: 1250 * MB_S,
      download: 1250 * MB_S,
      rate: 900_000,
      disabled: true,
      backupPlan: null,
      ioLimits: null,
    },
  ];
  for (const p of plans) store.t.plans.insert(seedRow(p));

  // Platform images (owner null: visible to every workspace).
  const image = (p: Partial<ImageRow> & Pick<ImageRow, "name" | "kind" | "os" | "size">): Omit<ImageRow, "id" | "seed"> => ({
    workspaceId: null,
    description: null,
    group: null,
    source: { type: "PLATFORM" },
    uefi: false,
    official: true,
    deprecated: false,
    state: "AVAILABLE",
    created: now,
    upload: null,
    ...p,
  });
  const images = [
    image({
      name: "Ubuntu 24.04 LTS",
      kind: "TEMPLATE",
      group: "linux",
      os: { family: "LINUX", name: "Ubuntu 24.04" },
      size: 3 * GiB,
      description: "Ubuntu Server 24.04 LTS (Noble Numbat)",
    }),
    image({
      name: "Debian 12",
      kind: "TEMPLATE",
      group: "linux",
      os: { family: "LINUX", name: "Debian 12" },
      size: 2 * GiB,
      description: "Debian 12 (Bookworm)",
    }),
    image({
      name: "Ubuntu 20.04 LTS",
      kind: "TEMPLATE",
      group: "linux",
      os: { family: "LINUX", name: "Ubuntu 20.04" },
      size: 3 * GiB,
      deprecated: true,
      description: "Ubuntu Server 20.04 LTS (end of standard support)",
    }),
    image({
      name: "Windows Server 2022",
      kind: "TEMPLATE",
      group: "windows",
      os: { family: "WINDOWS", name: "Windows Server 2022" },
      size: 20 * GiB,
      uefi: true,
      description: "Windows Server 2022 Datacenter",
    }),
    image({
      name: "FreeBSD 14.1",
      kind: "TEMPLATE",
      group: "bsd",
      os: { family: "BSD", name: "FreeBSD 14.1" },
      size: 2 * GiB,
      description: "FreeBSD 14.1-RELEASE",
    }),
    image({
      name: "Ubuntu 24.04 Live Server ISO",
      kind: "ISO",
      group: "linux",
      os: { family: "LINUX", name: "Ubuntu 24.04" },
      size: 2_690_000_000,
      description: "Installer ISO for Ubuntu Server 24.04",
    }),
  ];
  for (const i of images) store.t.images.insert(seedRow(i));

  // Rate cards: an older and a current entry per card, so effective dating is observable.
  const cards: Omit<RateCardRow, "id" | "seed">[] = [];
  const card = (p: Partial<RateCardRow> & Pick<RateCardRow, "type" | "unitRate">, region: string, effectiveFrom: string) =>
    cards.push({
      region,
      serviceGroup: null,
      cpuModel: null,
      storageBacking: null,
      direction: null,
      family: null,
      ddos: null,
      effectiveFrom,
      ...p,
    });
  for (const region of REGIONS) {
    const m = region === "EU_01" ? 1.1 : 1;
    for (const [from, step] of [
      ["2025-01-01T00:00:00.000Z", 1],
      ["2026-06-01T00:00:00.000Z", 1.2],
    ] as const) {
      const r = (v: number) => Math.round(v * m * step);
      card({ type: "CPU", unitRate: r(4_000) }, region, from);
      card({ type: "CPU", serviceGroup: "LIGHTNING", unitRate: r(3_000) }, region, from);
      card({ type: "CPU", serviceGroup: "RYZEN", unitRate: r(5_000) }, region, from);
      card({ type: "CPU", serviceGroup: "RYZEN", cpuModel: "EPYC-9654", unitRate: r(6_000) }, region, from);
      card({ type: "CPU", serviceGroup: "DEDICATED", unitRate: r(9_000) }, region, from);
      card({ type: "MEMORY", unitRate: r(1_500) }, region, from);
      card({ type: "STORAGE", unitRate: r(100) }, region, from);
      card({ type: "STORAGE", storageBacking: "ceph", unitRate: r(150) }, region, from);
      card({ type: "STORAGE", storageBacking: "nvme", unitRate: r(120) }, region, from);
      card({ type: "BANDWIDTH", direction: "UPLOAD", unitRate: r(20) }, region, from);
      card({ type: "BANDWIDTH", direction: "DOWNLOAD", unitRate: r(10) }, region, from);
      card({ type: "IP", family: "IPv4", ddos: false, unitRate: r(5_000) }, region, from);
      card({ type: "IP", family: "IPv4", ddos: true, unitRate: r(9_000) }, region, from);
      card({ type: "IP", family: "IPv6", unitRate: r(500) }, region, from);
    }
  }
  for (const c of cards) store.t.rateCards.insert(seedRow(c));

  const catalog: SeedCatalog = {
    userId: user.id,
    workspaceId: workspace.id,
    staffUserId: staff.id,
    privateCloudWorkspaceId: privateCloud.id,
  };
  for (const domain of allDomains) domain.seed?.(services, catalog);

  const bootstrap: Bootstrap = { token, staffToken, workspaceId: workspace.id, userId: user.id, email: user.email, password };
  store.t.bootstrap.rows.set("bootstrap", { id: "bootstrap", seed: true, ...bootstrap });
  return bootstrap;
}
