/**
 * K3sService at preview: what the spec documents for the service body is refused by `check`,
 * before any API call (an image without a tag, a fractional replica count); limits only the
 * emulator keeps are the API's to decide (tests/unit/resources/apiDecides.test.ts). Then its
 * defaults, list rules and what each change does (diff). tests/inprocess/k3sService.test.ts proves the
 * changes against the API, on both faces.
 */
import { diff, failureLines, failuresOf, recorded } from "../../support/preview";
import { k3sServiceDefinition } from "../../../resources/k3sService";

const validService = { name: "web", image: "nginx:1.27", mode: "SPREAD", targetInstanceIds: ["1"], replicas: 2 };

describe("K3sService preview checks", () => {
  it("accepts what the spec allows, http on a TCP port and a plain UDP port among it", async () => {
    const ports = [
      { hostPort: 8080, containerPort: 80, http: true },
      { hostPort: 5353, containerPort: 53, protocol: "UDP" },
    ];
    expect(await failuresOf(k3sServiceDefinition, { ...validService, image: "registry.example.com:5000/team/app:v2", ports })).toEqual([]);
  });

  it.each([
    [
      "an image without a tag",
      { image: "nginx" },
      "image",
      "must be a container image with a tag, such as nginx:1.27 or ghcr.io/org/app:v2 (spec part 3, Kubernetes service: image with tag)",
    ],
    [
      "a fractional replica count",
      { replicas: 1.5 },
      "replicas",
      "must be a whole number (spec part 3, Kubernetes service: replicas is an integer)",
    ],
  ])("refuses %s, citing the spec", async (_what, change, property, reason) => {
    expect(await failuresOf(k3sServiceDefinition, { ...validService, ...change })).toContainEqual({ property, reason });
  });
});

const SERVICE = "spec part 3, Kubernetes service";

describe("K3sService defaults and list rules", () => {
  it("records the API's defaults, so an omitted field (cleared by PUT) diffs quietly", async () => {
    expect(await recorded(k3sServiceDefinition, { ...validService, ports: [{ hostPort: 80, containerPort: 8080 }] })).toEqual({
      ...validService,
      workspaceId: "42",
      ports: [{ hostPort: 80, containerPort: 8080, protocol: "TCP", http: false }],
      volumes: [],
      environment: {},
      secretRefs: [],
      updateStrategy: "ROLLING",
    });
    expect((await recorded(k3sServiceDefinition, { ...validService, replicas: undefined })).replicas).toBe(1);
  });

  it.each<[what: string, change: Record<string, unknown>, failure: string]>([
    [
      "a target instance listed twice",
      { targetInstanceIds: ["1", "2", "1"] },
      `targetInstanceIds[2]: duplicate instance 1: each may appear once (${SERVICE})`,
    ],
    [
      "a host port published twice for one protocol",
      {
        ports: [
          { hostPort: 80, containerPort: 80 },
          { hostPort: 80, containerPort: 81, protocol: "TCP" },
        ],
      },
      `ports[1]: duplicate host port and protocol 80/TCP: each may appear once (${SERVICE})`,
    ],
    [
      "a container path mounted twice",
      {
        volumes: [
          { hostPath: "/a", containerPath: "/data" },
          { hostPath: "/b", containerPath: "/data" },
        ],
      },
      `volumes[1]: duplicate container path /data: each may appear once (${SERVICE})`,
    ],
    [
      "a secret referenced twice",
      { secretRefs: ["creds", "creds"] },
      `secretRefs[1]: duplicate secret creds: each may appear once (${SERVICE})`,
    ],
    [
      "no target instance",
      { targetInstanceIds: [] },
      `targetInstanceIds: must list at least one instance (${SERVICE}: target_instances is required)`,
    ],
    [
      "a snake_case port field",
      { ports: [{ hostPort: 80, host_port: 80, containerPort: 80 }] },
      "ports[0]: unknown field host_port: the fields are hostPort, containerPort, protocol, http",
    ],
    [
      "a relative volume path",
      { volumes: [{ hostPath: "srv/data", containerPath: "/data" }] },
      `volumes[0].hostPath: must be an absolute path, starting with / (${SERVICE})`,
    ],
    ["port 0", { ports: [{ hostPort: 0, containerPort: 80 }] }, `ports[0].hostPort: must be 1 to 65535 (${SERVICE})`],
    [
      "a mode other than PINNED or SPREAD",
      { mode: "RANDOM" },
      `mode: must be PINNED (pods only on the target instances) or SPREAD (across nodes up to replicas) (${SERVICE})`,
    ],
    ["another update strategy", { updateStrategy: "RECREATE" }, `updateStrategy: must be ROLLING or START_FIRST (${SERVICE})`],
  ])("refuses %s", async (_what, change, failure) => {
    expect(await failureLines(k3sServiceDefinition, { ...validService, ...change })).toEqual([failure]);
  });

  it("accepts one host port once per protocol", async () => {
    const ports = [
      { hostPort: 53, containerPort: 53 },
      { hostPort: 53, containerPort: 53, protocol: "UDP" },
    ];
    expect(await failureLines(k3sServiceDefinition, { ...validService, ports })).toEqual([]);
  });
});

describe("K3sService changes at preview", () => {
  const running = { status: "RUNNING", updating: false, desiredReplicas: 2, availableReplicas: 2 };
  const recordedService = async () => ({ ...(await recorded(k3sServiceDefinition, validService)), ...running });

  it("sees no change in the recorded declaration", async () => {
    const olds = await recordedService();
    expect(await diff(k3sServiceDefinition, olds, await recorded(k3sServiceDefinition, validService))).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each<[string, unknown]>([
    ["image", "nginx:1.28"],
    ["targetInstanceIds", ["1", "2"]],
    ["replicas", 3],
    ["ports", [{ hostPort: 8080, containerPort: 80, protocol: "TCP", http: true }]],
    ["volumes", [{ hostPath: "/srv/web", containerPath: "/usr/share/nginx/html" }]],
    ["environment", { LOG_LEVEL: "debug" }],
    ["secretRefs", ["app-creds"]],
    ["updateStrategy", "START_FIRST"],
  ])("PUTs a new %s in place", async (field, value) => {
    const olds = await recordedService();
    expect(await diff(k3sServiceDefinition, olds, { ...olds, [field]: value })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on a new name, creating the new service first (the names differ)", async () => {
    const olds = await recordedService();
    expect(await diff(k3sServiceDefinition, olds, { ...olds, name: "web-v2" })).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on a new mode, deleting the old service first (it keeps the name)", async () => {
    const olds = await recordedService();
    expect(await diff(k3sServiceDefinition, olds, { ...olds, mode: "PINNED" })).toEqual({
      changes: true,
      replaces: ["mode"],
      deleteBeforeReplace: true,
    });
  });

  it("replaces on another workspace, deleting first when the name stays (the unique key is the name)", async () => {
    const olds = await recordedService();
    expect(await diff(k3sServiceDefinition, olds, { ...olds, workspaceId: "43" })).toEqual({
      changes: true,
      replaces: ["workspaceId"],
      deleteBeforeReplace: true,
    });
  });

  it("replaces a FAILED service (deleting first: same name), and finishes one recorded mid-rollout", async () => {
    const olds = await recordedService();
    const news = await recorded(k3sServiceDefinition, validService);
    expect(await diff(k3sServiceDefinition, { ...olds, status: "FAILED" }, news)).toEqual({
      changes: true,
      replaces: ["state"],
      deleteBeforeReplace: true,
    });
    expect(await diff(k3sServiceDefinition, { ...olds, status: "DEPLOYING" }, news)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("shows no change for a RUNNING service short of replicas (degraded, not unfinished)", async () => {
    const olds = { ...(await recordedService()), availableReplicas: 1 };
    expect(await diff(k3sServiceDefinition, olds, await recorded(k3sServiceDefinition, validService))).toMatchObject({ changes: false });
  });
});
