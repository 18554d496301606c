/**
 * The measure of every end-to-end test that changes things: the stack's state against the
 * emulator's inventory. Each object the state records exists in the API exactly once, and
 * nothing else does (an instance's own boot disk and what the API makes with an instance aside).
 */
import type { E2E, StateResource } from "./harness";

/** Which emulator table holds each resource kind these tests declare. */
const TABLE_OF: Record<string, string> = {
  Vpc: "vpcs",
  Instance: "instances",
  FirewallRule: "firewallRules",
  Disk: "disks",
  K3sCluster: "k3sClusters",
  K3sNode: "k3sNodes",
  K3sSecret: "k3sSecrets",
  K3sService: "k3sServices",
  SshKey: "sshKeys",
  RegistryCredential: "registries",
  Recipe: "recipes",
  BgpConfig: "bgpConfigs",
};
/** Objects the API makes with others (an instance's floating IPs, its VPC memberships). */
const DERIVED = ["vpcMembers", "floatingIps"];

const kindOf = (r: StateResource) => r.type.split(":").pop()!;

/** How the check reads one object from the API: a plain GET, or one that waits out injected faults. */
type Read = (path: string) => Promise<unknown>;

/**
 * The stack's state against the API's inventory: each recorded object exists, exactly once, and
 * nothing else does (an instance's own boot disk aside). Returns the recorded ids by kind.
 */
export async function expectStateMatchesInventory(
  e2e: E2E,
  read: Read = async (path) => (await e2e.emu.api.get(path)).body,
): Promise<Record<string, string[]>> {
  const state = await e2e.state();
  expect(state.filter((r) => !/^\d+$/.test(r.id ?? "")).map((r) => r.urn)).toEqual([]);
  const inventory = (await e2e.inventoryTotal()).resources as Record<string, Array<{ id: string }>>;
  const instances = state.filter((r) => kindOf(r) === "Instance").map((r) => r.id!);
  const recordedByKind: Record<string, string[]> = {};
  for (const [kind, table] of Object.entries(TABLE_OF)) {
    const recorded = state.filter((r) => kindOf(r) === kind).map((r) => r.id!);
    let live = (inventory[table] ?? []).map((row) => String(row.id));
    if (kind === "Disk") {
      const own = await Promise.all(
        live.map(async (id) => {
          const disk = (await read(`/v1/disks/${id}`)) as { boot: boolean; instance: { id: string } | null };
          return disk.boot && disk.instance && instances.includes(String(disk.instance.id)) ? id : "";
        }),
      );
      live = live.filter((id) => !own.includes(id));
    }
    expect({ kind, ids: [...live].sort() }).toEqual({ kind, ids: [...recorded].sort() });
    recordedByKind[kind] = recorded;
  }
  const accounted = new Set([...Object.values(TABLE_OF), ...DERIVED]);
  expect(Object.entries(inventory).filter(([table, rows]) => !accounted.has(table) && rows.length > 0)).toEqual([]);
  return recordedByKind;
}

/** After `pulumi destroy`: nothing left in the stack or the API. */
export async function expectAllGone(e2e: E2E): Promise<void> {
  expect(await e2e.state()).toEqual([]);
  const inventory = await e2e.inventoryTotal();
  expect(Object.entries(inventory.resources).filter(([, rows]) => rows.length > 0)).toEqual([]);
}
