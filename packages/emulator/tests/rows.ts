/**
 * Rows inserted straight into an in-process emulator's store, for tests that need a resource
 * of another area without calling its endpoints. Each builder fills every column; a test passes
 * only what matters to it.
 */
import type { InstanceRow } from "../src/model";
import type { TestEmulator } from "../src/testing";

const GiB = 1024 ** 3;

/** A running PLAN instance in the bootstrap workspace (NA_01, the first node and plan). */
export function insertInstanceRow(t: TestEmulator, over: Partial<InstanceRow> = {}): InstanceRow {
  const s = t.emu.services.store;
  const id = s.newId();
  return s.t.instances.insert({
    id,
    workspaceId: t.workspaceId,
    name: `vm-${id.slice(-6)}`,
    type: "PLAN",
    planId: s.t.plans.all()[0].id,
    group: "LIGHTNING",
    cpu: 2,
    memoryBytes: 4 * GiB,
    bandwidth: { upload_bytes_sec: 1e8, download_bytes_sec: 1e8 },
    ioLimits: null,
    region: "NA_01",
    nodeId: s.t.nodes.all()[0].id,
    imageId: null,
    isoId: null,
    boot: "DISK",
    uefi: false,
    secureBoot: false,
    attachVirtioCdb: false,
    syncHostname: true,
    firewallEnabled: false,
    osName: "Ubuntu 24.04",
    hostname: `vm-${id.slice(-6)}`,
    cloudInit: null,
    disableCloudInit: false,
    state: "AVAILABLE",
    online: true,
    locked: false,
    pendingUpgrades: false,
    staged: null,
    terminationScheduledAt: null,
    networkSuspended: false,
    created: t.emu.services.clock.iso(),
    ...over,
  });
}
