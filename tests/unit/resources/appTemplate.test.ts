/**
 * AppTemplate: the preview rules, the policy table and the placeholder helpers, through the
 * lifecycle's check and diff (which never call the API).
 */
import { checkOnly, failureLines } from "../../support/preview";
import { appTemplateDefinition, placeholdersOf, resolvesTo } from "../../../resources/appTemplate";

describe("placeholders", () => {
  it("parses every kind and reports unknown ones", () => {
    expect(placeholdersOf("{{host_port.web}}:{{ container_port.web }}/{{instance.ip4}}[{{instance.ip6}}]{{random:12}}")).toEqual([
      { kind: "host_port", port: "web" },
      { kind: "container_port", port: "web" },
      { kind: "ip4" },
      { kind: "ip6" },
      { kind: "random", length: 12 },
    ]);
    expect(placeholdersOf("{{random:129}}")).toMatch(/random length must be 1 to 128/);
    expect(placeholdersOf("{{instance.ip5}}")).toMatch(/unknown placeholder/);
  });

  it("matches a declared value with the final value the API stored", () => {
    expect(resolvesTo("http://{{instance.ip4}}:{{host_port.web}}/", "http://203.0.113.7:3001/")).toBe(true);
    expect(resolvesTo("{{random:8}}", "aZ09bY18")).toBe(true);
    expect(resolvesTo("{{random:8}}", "aZ09bY1")).toBe(false);
    expect(resolvesTo("key-{{random:4}}", "other-abcd")).toBe(false);
    expect(resolvesTo("[{{instance.ip6}}]:{{container_port.api}}", "[2001:db8::1]:11434")).toBe(true);
    expect(resolvesTo("a.b*c", "a.b*c")).toBe(true);
  });
});

describe("AppTemplate", () => {
  const tpl = {
    name: "Dashboard",
    description: "d",
    image: "grafana/grafana:11.2.0",
    environment: [{ key: "PORT", value: "{{container_port.web}}" }, { key: "DOMAIN" }],
    ports: [{ name: "web", containerPort: 3000, http: true }],
  };

  it("fills the API's defaults so diffs stay quiet", async () => {
    const r = await checkOnly(appTemplateDefinition).check!({}, tpl);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({
      category: null,
      mounts: [],
      environment: [
        { key: "PORT", value: "{{container_port.web}}", description: "" },
        { key: "DOMAIN", value: null, description: "" },
      ],
      ports: [{ name: "web", description: "", containerPort: 3000, protocol: "TCP", http: true }],
    });
  });

  it.each([
    [
      "two http ports",
      {
        ...tpl,
        ports: [
          { name: "a", containerPort: 1, http: true },
          { name: "b", containerPort: 2, http: true },
        ],
      },
      /ports: at most one port per template may have http true/,
    ],
    [
      "a repeated port name",
      {
        ...tpl,
        ports: [
          { name: "web", containerPort: 1 },
          { name: "web", containerPort: 2 },
        ],
      },
      /ports\[1\]: duplicate port name web/,
    ],
    ["a port name that is not a slug", { ...tpl, ports: [{ name: "Web", containerPort: 1 }] }, /ports\[0\]\.name: must be a slug/],
    ["a repeated key", { ...tpl, environment: [{ key: "A" }, { key: "A" }] }, /environment\[1\]: duplicate environment key A/],
    [
      "a placeholder naming no port",
      { ...tpl, environment: [{ key: "A", value: "{{host_port.admin}}" }] },
      /environment: .*names no port of this template/,
    ],
    ["an unknown placeholder", { ...tpl, environment: [{ key: "A", value: "{{whatever}}" }] }, /environment: .*unknown placeholder/],
    ["an empty description", { ...tpl, description: "" }, /description: must not be empty/],
  ])("rejects %s at preview", async (_what, news, message) => {
    expect((await failureLines(appTemplateDefinition, news)).join("\n")).toMatch(message);
  });

  it("patches every field in place", async () => {
    const olds = { ...(await checkOnly(appTemplateDefinition).check!({}, tpl)).inputs };
    for (const [field, value] of Object.entries({
      name: "x",
      description: "y",
      image: "a:1",
      category: "AI",
      environment: [],
      mounts: [{ hostPath: "/a", containerPath: "/b", readOnly: false }],
      ports: [],
    })) {
      const d = await checkOnly(appTemplateDefinition).diff!("1", olds, { ...olds, [field]: value });
      expect(d).toMatchObject({ changes: true, replaces: [] });
    }
  });
});
