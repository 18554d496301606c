/**
 * K3sService and K3sSecret preview checks: every limit the emulator documents for the service and
 * secret bodies (emulator/README.md, Managed Kubernetes) is refused by `check`, before any API call,
 * so an up never builds the cluster, instances and nodes only to fail on the service.
 */
import { failuresOf } from "../../support/preview";
import { k3sSecretSpec } from "../../../resources/k3sSecret";
import { k3sServiceSpec } from "../../../resources/k3sService";

const validService = { name: "web", image: "nginx:1.27", mode: "SPREAD", targetInstanceIds: ["1"], replicas: 2 };
const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));

describe("K3sService preview checks", () => {
  it("accepts the boundary values", async () => {
    const edge = {
      ...validService,
      name: "a".repeat(63),
      image: "registry.example.com:5000/team/app:v2",
      replicas: 100,
      targetInstanceIds: many(100, (i) => String(i + 1)),
      ports: many(64, (i) => ({ hostPort: 1000 + i, containerPort: 80 })),
      volumes: many(64, (i) => ({ hostPath: `/srv/${i}`, containerPath: `/data/${i}` })),
      environment: { _A1: "x".repeat(32 * 1024) },
      secretRefs: many(64, (i) => `s-${i}`),
    };
    expect(await failuresOf(k3sServiceSpec, edge)).toEqual([]);
  });

  it.each([
    ["replicas above 100", { replicas: 101 }, "replicas", /must be 1 to 100/],
    ["replicas below 1", { replicas: 0 }, "replicas", /must be 1 to 100/],
    ["a name with capitals", { name: "Web" }, "name", /DNS label/],
    ["a name with an underscore", { name: "web_app" }, "name", /DNS label/],
    ["a name ending with -", { name: "web-" }, "name", /DNS label/],
    ["a name of 64 characters", { name: "a".repeat(64) }, "name", /DNS label/],
    ["an image without a tag", { image: "nginx" }, "image", /with a tag/],
    ["an image with capitals in its path", { image: "Nginx:1.27" }, "image", /with a tag/],
    ["101 target instances", { targetInstanceIds: many(101, (i) => String(i + 1)) }, "targetInstanceIds", /at most 100/],
    ["65 ports", { ports: many(65, (i) => ({ hostPort: 1000 + i, containerPort: 80 })) }, "ports", /at most 64/],
    ["65 volumes", { volumes: many(65, (i) => ({ hostPath: `/srv/${i}`, containerPath: `/d/${i}` })) }, "volumes", /at most 64/],
    ["an environment name starting with a digit", { environment: { "1A": "x" } }, "environment", /letters, digits and _/],
    ["an environment value over 32 KiB", { environment: { A: "x".repeat(32 * 1024 + 1) } }, "environment.A", /at most 32 KiB/],
    ["65 secret references", { secretRefs: many(65, (i) => `s-${i}`) }, "secretRefs", /at most 64/],
    ["a secret reference that is no DNS label", { secretRefs: ["Bad_Name"] }, "secretRefs[0]", /DNS label/],
  ])("refuses %s", async (_what, change, property, reason) => {
    const found = await failuresOf(k3sServiceSpec, { ...validService, ...change });
    expect(found.find((f) => f.property.startsWith(property))?.reason).toMatch(reason);
  });
});

describe("K3sSecret preview checks", () => {
  it("accepts a DNS-label name and keys of letters, digits, -, _ and .", async () => {
    expect(await failuresOf(k3sSecretSpec, { name: "app-creds", data: { "db.password_1-x": "v" } })).toEqual([]);
  });

  it.each([
    ["a name with capitals", { name: "AppCreds", data: { a: "v" } }, "name", /DNS label/],
    ["a key with a space", { name: "creds", data: { "a b": "v" } }, "data", /keys must be 1 to 253/],
    ["a value over 1 MiB", { name: "creds", data: { a: "x".repeat(1024 * 1024 + 1) } }, "data.a", /at most 1 MiB/],
  ])("refuses %s", async (_what, inputs, property, reason) => {
    const found = await failuresOf(k3sSecretSpec, inputs);
    expect(found.find((f) => f.property.startsWith(property))?.reason).toMatch(reason);
  });
});

describe("K3sService http ports and where each limit comes from", () => {
  it("accepts http on a TCP port and a plain UDP port", async () => {
    const ports = [{ hostPort: 8080, containerPort: 80, http: true }, { hostPort: 5353, containerPort: 53, protocol: "UDP" }];
    expect(await failuresOf(k3sServiceSpec, { ...validService, ports })).toEqual([]);
  });

  it("refuses http on a UDP port, on the port's http property", async () => {
    const found = await failuresOf(k3sServiceSpec, { ...validService, ports: [{ hostPort: 5353, containerPort: 53, protocol: "UDP", http: true }] });
    expect(found).toContainEqual({ property: "ports[0].http", reason: "http applies to TCP ports only (the emulator's limit: spec part 3, Kubernetes service gives none)" });
  });

  // The spec gives a service no name pattern and replicas no maximum: the messages must not claim it does.
  it.each([
    ["replicas", { replicas: 101 }, "must be 1 to 100 (the emulator's limit: spec part 3, Kubernetes service gives none)"],
    ["name", { name: "Bad_Name" }, /^must be a DNS label: .* \(Kubernetes object names; the emulator's limit: spec part 3, Kubernetes service gives none\)$/],
  ])("says the %s limit is the emulator's, not the spec's", async (property, change, reason) => {
    const found = await failuresOf(k3sServiceSpec, { ...validService, ...change });
    expect(found).toContainEqual({ property, reason: typeof reason === "string" ? reason : expect.stringMatching(reason) });
  });
});
