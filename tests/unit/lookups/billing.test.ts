/**
 * getBillingEstimate (resources/lookups/billing.ts): the parts a program declares, mapped to the
 * API's body.
 */
import { estimatePartBody } from "../../../resources/lookups/billing";

describe("getBillingEstimate parts", () => {
  it("maps camelCase parts to the API's snake_case", () => {
    expect(estimatePartBody({ type: "CPU", cpu: 2, serviceGroup: "LIGHTNING" }, 0)).toEqual({
      type: "CPU",
      cpu: 2,
      service_group: "LIGHTNING",
    });
    expect(estimatePartBody({ type: "MEMORY", memoryBytes: 1024 }, 0)).toEqual({ type: "MEMORY", memory_bytes: 1024 });
    expect(estimatePartBody({ type: "STORAGE", storageBytes: 10, storageBacking: "ceph" }, 0)).toEqual({
      type: "STORAGE",
      storage_bytes: 10,
      storage_backing: "ceph",
    });
    expect(estimatePartBody({ type: "BANDWIDTH", direction: "UPLOAD", speedBytesSec: 5 }, 0)).toEqual({
      type: "BANDWIDTH",
      direction: "UPLOAD",
      speed_bytes_sec: 5,
    });
    expect(estimatePartBody({ type: "FLOATING_IP", family: "IPv4", ddos: true }, 0)).toEqual({
      type: "FLOATING_IP",
      family: "IPv4",
      ddos: true,
    });
  });
  it("names the part and field that is wrong", () => {
    expect(() => estimatePartBody({ type: "MEMORY" } as never, 2)).toThrow(/parts\[2\]\.memoryBytes is required/);
    expect(() => estimatePartBody({ type: "GPU" } as never, 1)).toThrow(/parts\[1\]\.type must be/);
    expect(() => estimatePartBody({ type: "FLOATING_IP", family: "IPv6", ddos: true }, 0)).toThrow(/IPv4 only/);
  });
});
