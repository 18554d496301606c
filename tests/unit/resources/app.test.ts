/**
 * App: the preview rules and the policy table, through the lifecycle's check and diff (which never
 * call the API).
 */
import { checkOnly, failureLines } from "../../support/preview";
import { appDefinition } from "../../../resources/app";

describe("App", () => {
  const custom = {
    instanceId: "1",
    name: "web",
    image: "nginx:1.27",
    ports: [{ hostPort: 80, containerPort: 80, http: true }],
    domain: "web.example.com",
  };
  const fromTemplate = { instanceId: "1", name: "kuma", templateId: "7", environment: { A: "x", B: null, C: "{{random:8}}" } };

  it("accepts both modes and fills the defaults", async () => {
    const r = await checkOnly(appDefinition).check!({}, custom);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ running: true, ports: [{ hostPort: 80, containerPort: 80, protocol: "TCP", http: true }] });
    expect(await failureLines(appDefinition, fromTemplate)).toEqual([]);
  });

  it.each([
    ["neither image nor templateId", { ...custom, image: undefined }, /image: set image .* or templateId/],
    ["both image and templateId", { ...custom, templateId: "7" }, /image: set either image or templateId/],
    ["an image without a tag", { ...custom, image: "nginx" }, /image: must be a container image with a tag/],
    ["a digest-only image", { ...custom, image: "nginx@sha256:abc" }, /image: must be a container image with a tag/],
    ["a registry port without a tag", { ...custom, image: "registry:5000/team/app" }, /image: must be a container image with a tag/],
    [
      "ports on a template app",
      { ...fromTemplate, ports: [{ hostPort: 1, containerPort: 1 }] },
      /ports: a template app takes its ports from the template/,
    ],
    [
      "a domain without an http port",
      { ...custom, ports: [{ hostPort: 80, containerPort: 80 }] },
      /domain: a domain needs at least one port with http true/,
    ],
    ["a null value on a custom app", { ...custom, environment: { A: null } }, /environment: null removes a template default/],
    [
      "an unknown placeholder",
      { ...fromTemplate, environment: { A: "{{nope}}" } },
      /environment: environment.A: unknown placeholder \{\{nope\}\}/,
    ],
    ["a random length of 0", { ...fromTemplate, environment: { A: "{{random:0}}" } }, /random length must be 1 to 128/],
    [
      "a port out of range",
      { ...custom, ports: [{ hostPort: 70000, containerPort: 80, http: true }] },
      /ports\[0\]\.hostPort: must be 1 to 65535/,
    ],
    ["a snake_case port field", { ...custom, ports: [{ host_port: 80, containerPort: 80 }] }, /ports\[0\]: unknown field host_port/],
    [
      "a relative container path",
      { ...custom, mounts: [{ hostPath: "/a", containerPath: "data" }] },
      /mounts\[0\]\.containerPath: must be an absolute path/,
    ],
    [
      "a repeated host port and protocol",
      {
        ...custom,
        ports: [
          { hostPort: 80, containerPort: 80, http: true },
          { hostPort: 80, containerPort: 81 },
        ],
      },
      /ports\[1\]: duplicate host port and protocol 80\/TCP/,
    ],
  ])("rejects %s at preview, naming the property", async (_what, news, message) => {
    expect((await failureLines(appDefinition, news)).join("\n")).toMatch(message);
  });

  it("allows the same host port on TCP and UDP", async () => {
    expect(
      await failureLines(appDefinition, {
        ...custom,
        ports: [
          { hostPort: 53, containerPort: 53, protocol: "UDP" },
          { hostPort: 53, containerPort: 53, http: true },
        ],
      }),
    ).toEqual([]);
  });

  const recorded = {
    ...custom,
    ports: [{ hostPort: 80, containerPort: 80, protocol: "TCP", http: true }],
    running: true,
    environment: {},
    mounts: [],
    state: "AVAILABLE",
  };
  it.each([
    ["image", { image: "nginx:1.28" }, false],
    ["environment", { environment: { A: "1" } }, false],
    ["mounts", { mounts: [{ hostPath: "/a", containerPath: "/b", readOnly: false }] }, false],
    ["ports", { ports: [{ hostPort: 81, containerPort: 80, protocol: "TCP", http: true }] }, false],
    ["running", { running: false }, false],
    ["name", { name: "web-2" }, true],
    ["instanceId", { instanceId: "2" }, true],
    ["domain", { domain: "www.example.com" }, true],
    ["templateId", { templateId: "9" }, true],
  ])("a change of %s (%o): replaces %s", async (field, change, replaces) => {
    const d = await checkOnly(appDefinition).diff!("5", recorded, { ...recorded, ...change });
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual(replaces ? [field] : []);
    // Names (workspace) and host ports (instance) are unique: any replacement deletes first.
    if (replaces) expect(d.deleteBeforeReplace).toBe(true);
  });

  it("a FAILED app is replaced, deleting the old one first", async () => {
    const d = await checkOnly(appDefinition).diff!("5", { ...recorded, state: "FAILED" }, recorded);
    expect(d).toMatchObject({ changes: true, replaces: ["state"], deleteBeforeReplace: true });
  });
});
