/**
 * An area of the API: its route table and, optionally, what it adds to the seeded catalogue.
 */
import type { RouteDef } from "./router";
import type { Services } from "./services";

export interface SeedCatalog {
  /** The bootstrap user and the one workspace they own. */
  userId: string;
  workspaceId: string;
  /** The staff/operator account, and the private-cloud workspace it owns. */
  staffUserId: string;
  privateCloudWorkspaceId: string;
}

/** How the inventory shows a table's rows: the owning workspace and a label. */
export interface InventoryKind {
  workspaceOf(row: never): string | null;
  label?(row: never): string;
}

export interface Domain {
  name: string;
  routes: RouteDef[];
  /** Tables holding live resources, for GET /_emulator/inventory (keyed by table name). */
  inventory?: Record<string, InventoryKind>;
  seed?(services: Services, catalog: SeedCatalog): void;
}
