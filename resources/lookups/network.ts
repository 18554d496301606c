/**
 * Networking-area lookups: compute nodes (spec part 2, Plans and nodes), for placing instances
 * on a private cloud or inspecting the platform.
 */
import type { Query } from "../../provider/client/client";
import { ApiError } from "../../provider/errors";
import { listAll } from "../../provider/client/paging";
import { idOf, numberOf } from "../../provider/client/wire";
import { lookupClient, workspaceOf } from "./common";
import type { Integer, WideInteger } from "../../provider/fields/integer";

// ---------------------------------------------------------------------------------------------
// Nodes (GET /v1/workspaces/{wid}/nodes and, for operators, GET /v1/nodes; keyset-paged)

export interface Node {
  id: string;
  /** Hostname. */
  name: string;
  /** Owning workspace of a private node; null for platform nodes. */
  owner: { id: string; name: string } | null;
  group: string;
  region: string;
  /** Total memory, bytes. */
  maxMemory: WideInteger;
  cores: Integer;
  /** Capability flags; CEPH marks nodes in the Ceph cluster. */
  flags: string[];
}

export interface GetNodesArgs {
  /**
   * "workspace" (default): the workspace's own private-cloud nodes (GET /v1/workspaces/{wid}/nodes;
   * a standard workspace owns none and gets an empty list).
   * "platform": every node (GET /v1/nodes), administrator only — needs an operator token; a
   * user-scoped token is refused.
   */
  scope?: "workspace" | "platform";
  /** The workspace for scope "workspace"; default svc:workspaceId. */
  workspaceId?: string;
  /** Quick search: name substring or exact id. */
  q?: string;
  /** Name (hostname) filter; the API matches substrings. */
  name?: string;
  /** Service group, for example LIGHTNING. */
  group?: string;
  /** Region, for example NA_01. */
  region?: string;
  /** Only these node ids. */
  ids?: string[];
  /** Only nodes owned by these workspaces. */
  ownerWorkspaceIds?: string[];
}

interface ApiNode {
  id: string;
  name: string;
  owner: { id: string; name: string } | null;
  group: string;
  region: string;
  max_memory: number;
  cores: number;
  flags?: string[];
}

const toNode = (n: ApiNode): Node => ({
  id: idOf(n.id)!,
  name: n.name,
  owner: n.owner ? { id: idOf(n.owner.id)!, name: n.owner.name } : null,
  group: n.group,
  region: n.region,
  maxMemory: numberOf(n.max_memory)!,
  cores: numberOf(n.cores)!,
  flags: [...(n.flags ?? [])],
});

/** The nodes instances run on: the workspace's (default) or, for operators, the platform's (`scope: "platform"`), filtered by name, group, region or id. */
export async function getNodes(args: GetNodesArgs = {}): Promise<Node[]> {
  const scope = args.scope ?? "workspace";
  if (scope !== "workspace" && scope !== "platform")
    throw new Error(`getNodes: scope must be "workspace" or "platform", not ${JSON.stringify(scope)}`);
  const query: Query = { q: args.q, name: args.name, group: args.group, region: args.region, id: args.ids, owner: args.ownerWorkspaceIds };
  const path = scope === "platform" ? "/v1/nodes" : `/v1/workspaces/${workspaceOf(args)}/nodes`;
  try {
    return (await listAll<ApiNode>(lookupClient().client, path, query)).map(toNode);
  } catch (err) {
    if (scope === "platform" && err instanceof ApiError && (err.status === 400 || err.status === 403) && !err.fieldErrors.length) {
      throw new Error(
        `getNodes: listing platform nodes (GET /v1/nodes) is administrator-only and the API refused it (${err.message}). Use scope "workspace" for the workspace's own nodes, or an operator token.`,
      );
    }
    throw err;
  }
}
