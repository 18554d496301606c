/**
 * Catalogue lookups: plans (spec part 2, Plans and nodes) and images (part 2, Images).
 */
import type { Query } from "../../provider/client/client";
import { listAll } from "../../provider/client/paging";
import { idOf, numberOf } from "../../provider/client/wire";
import { lookupClient, workspaceOf } from "./common";
import type { Integer, WideInteger } from "../../provider/fields/integer";

// ---------------------------------------------------------------------------------------------
// Plans (spec part 2, Plans and nodes: GET /v1/plans, keyset-paged)

export interface Plan {
  id: string;
  name: string;
  group: "LIGHTNING" | "RYZEN" | "DEDICATED";
  cpu: Integer;
  /** Bytes. */
  memory: WideInteger;
  /** Boot disk bytes. */
  diskSize: WideInteger;
  /** Bytes per second. */
  upload: WideInteger;
  download: WideInteger;
  /** Hourly rate, micro-USD. */
  rate: WideInteger;
  disabled: boolean;
  backupPlan: { id: string; name: string } | null;
}

export interface GetPlansArgs {
  /** LIGHTNING, RYZEN or DEDICATED. */
  group?: "LIGHTNING" | "RYZEN" | "DEDICATED";
  /** Name filter (the API matches substrings). */
  name?: string;
  /** Only plans at or below this hourly rate, micro-USD. */
  maxHourlyRate?: WideInteger;
  /** Include disabled plans (default: exclude them). */
  includeDisabled?: boolean;
}

interface ApiPlan {
  id: string;
  name: string;
  group: Plan["group"];
  cpu: number;
  memory: number;
  disk_size: number;
  upload: number;
  download: number;
  rate: number;
  disabled: boolean;
  backup_plan?: { id: string; name: string } | null;
}

const toPlan = (p: ApiPlan): Plan => ({
  id: idOf(p.id)!,
  name: p.name,
  group: p.group,
  cpu: numberOf(p.cpu)!,
  memory: numberOf(p.memory)!,
  diskSize: numberOf(p.disk_size)!,
  upload: numberOf(p.upload)!,
  download: numberOf(p.download)!,
  rate: numberOf(p.rate)!,
  disabled: p.disabled,
  backupPlan: p.backup_plan ? { id: idOf(p.backup_plan.id)!, name: p.backup_plan.name } : null,
});

/** The plans for new instances (GET /v1/plans), each list followed to its last page: filter by group, name or highest hourly rate; disabled plans only when asked. */
export async function getPlans(args: GetPlansArgs = {}): Promise<Plan[]> {
  const query: Query = { group: args.group, name: args.name, rate: args.maxHourlyRate, disabled: args.includeDisabled ?? false };
  return (await listAll<ApiPlan>(lookupClient().client, "/v1/plans", query)).map(toPlan);
}

/** One plan by its exact name; an error lists the names available when there is none. */
export async function getPlan(args: { name: string }): Promise<Plan> {
  const plans = await getPlans({ name: args.name, includeDisabled: true });
  const plan = plans.find((p) => p.name === args.name);
  if (!plan) {
    const all = (await getPlans({ includeDisabled: true })).map((p) => p.name);
    throw new Error(`no plan named "${args.name}"; plans: ${all.join(", ")}`);
  }
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Images (spec part 2, Images: GET /v1/workspaces/{wid}/images, workspace-owned plus platform)

/** An image as lookups return it (named apart from the `Image` resource class). */
export interface ImageInfo {
  id: string;
  name: string;
  kind: "TEMPLATE" | "BACKUP" | "ISO";
  description: string | null;
  group: string | null;
  os: { family: "LINUX" | "WINDOWS" | "BSD"; name: string | null } | null;
  size: WideInteger;
  uefi: boolean;
  official: boolean;
  deprecated: boolean;
  state: string;
}

export interface GetImagesArgs {
  workspaceId?: string;
  /** Quick search (name, description or id). */
  q?: string;
  /** Name filter (the API matches substrings). */
  name?: string;
  /** Catalog group, e.g. linux or windows. */
  group?: string;
  /** Description filter (substring). */
  description?: string;
  /** Only images in these states (e.g. AVAILABLE). */
  state?: string[];
  /** Images made from these instances. */
  sourceInstanceIds?: string[];
  /** Images made from these disks. */
  sourceDiskIds?: string[];
  /** LINUX, WINDOWS or BSD. */
  osFamily?: "LINUX" | "WINDOWS" | "BSD";
  /** TEMPLATE, BACKUP and/or ISO. */
  kind?: Array<"TEMPLATE" | "BACKUP" | "ISO">;
  /** true: only platform-provided images; false: only the workspace's own. */
  official?: boolean;
  /** Include deprecated images (default: exclude them). */
  includeDeprecated?: boolean;
}

interface ApiImage {
  id: string;
  name: string;
  kind: ImageInfo["kind"];
  description: string | null;
  group: string | null;
  os: ImageInfo["os"];
  size: WideInteger;
  uefi: boolean;
  official: boolean;
  deprecated: boolean;
  state: string;
}

const toImage = (i: ApiImage): ImageInfo => ({
  id: idOf(i.id)!,
  name: i.name,
  kind: i.kind,
  description: i.description ?? null,
  group: i.group ?? null,
  os: i.os ?? null,
  size: numberOf(i.size)!,
  uefi: !!i.uefi,
  official: !!i.official,
  deprecated: !!i.deprecated,
  state: i.state,
});

/** The images an instance can boot from (GET /v1/images), each list followed to its last page, with their state and whether they are deprecated. */
export async function getImages(args: GetImagesArgs = {}): Promise<ImageInfo[]> {
  const query: Query = {
    q: args.q,
    name: args.name,
    group: args.group,
    description: args.description,
    os: args.osFamily,
    kind: args.kind,
    state: args.state,
    source_instance: args.sourceInstanceIds,
    source_disk: args.sourceDiskIds,
    official: args.official,
    deprecated: args.includeDeprecated ? undefined : false,
  };
  return (await listAll<ApiImage>(lookupClient().client, `/v1/workspaces/${workspaceOf(args)}/images`, query)).map(toImage);
}

/** One image by its exact name. */
export async function getImage(args: { name: string; workspaceId?: string }): Promise<ImageInfo> {
  const images = await getImages({ name: args.name, workspaceId: args.workspaceId, includeDeprecated: true });
  const image = images.find((i) => i.name === args.name);
  if (!image) throw new Error(`no image named "${args.name}" is visible in workspace ${workspaceOf(args)}`);
  return image;
}
