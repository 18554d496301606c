/**
 * AppTemplate on both faces, in process (tests/support/inProcess.ts), with the emulator's
 * operator token (templates are operator only), and an app deployed from it: a check refusing an
 * untagged image, the create checked against the API, an app from it made to supply the template's
 * null defaults, every field patched in place, drift read and put back, adoption, deletion outside
 * Pulumi read as gone, and the delete of what it made. An app template refused to a normal token is
 * app.test.ts's; the refusals at preview are tests/unit/resources/appTemplate.test.ts.
 */
import { describeEachFace, type Props } from "../support/inProcess";
import { appsHarness, runningInstance } from "./support/apps";

describeEachFace(
  "AppTemplate with the operator token, and an app deployed from it",
  (ctx) => {
    const { state, get, lastSeq, mutations, writes, upLogged, upFails, refresh } = appsHarness(ctx);
    const staff = () => ctx().emu.staff;
    let vm: string;

    const tpl: Props = {
      name: "Team Dashboard",
      description: "Internal dashboard.",
      image: "grafana/grafana:11.2.0",
      category: "MONITORING",
      environment: [
        { key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}", description: "listen port" },
        { key: "GF_SECURITY_ADMIN_PASSWORD", value: "{{random:24}}" },
        { key: "GF_SERVER_DOMAIN", value: null, description: "you must supply it" },
      ],
      mounts: [{ hostPath: "/opt/grafana", containerPath: "/var/lib/grafana" }],
      ports: [
        { name: "web", containerPort: 3000, http: true },
        { name: "metrics", containerPort: 9100 },
      ],
    };

    beforeAll(async () => {
      vm = await runningInstance(ctx, "dash-vm");
    });

    // The rest of what preview refuses is tests/unit/resources/appTemplate.test.ts.
    it("check refuses an image without a tag, naming the property, and sends nothing", async () => {
      const since = await lastSeq();
      const { failures } = await ctx().face.check("AppTemplate", { ...tpl, image: "grafana/grafana" });
      expect(failures.map((f) => `${f.property}: ${f.reason}`)).toContainEqual(
        expect.stringMatching(/^image: must be a container image with a tag/),
      );
      expect(await mutations(since)).toEqual([]);
    });

    it("creates a template, checked against the API, and diffs the same declaration as no change", async () => {
      expect((await upLogged("tpl", "AppTemplate", tpl)).step).toBe("create");
      expect(await get(`/v1/app-templates/${state.tpl.id}`)).toMatchObject({
        name: "Team Dashboard",
        category: "MONITORING",
        ports: [
          { name: "web", container_port: 3000, protocol: "TCP", http: true, description: "" },
          { name: "metrics", container_port: 9100, protocol: "TCP", http: false },
        ],
        environment: [
          { key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}" },
          { key: "GF_SECURITY_ADMIN_PASSWORD", value: "{{random:24}}", description: "" },
          { key: "GF_SERVER_DOMAIN", value: null },
        ],
      });
      const { step, mutations: sent } = await upLogged("tpl", "AppTemplate", tpl);
      expect({ step, sent }).toEqual({ step: "same", sent: [] });
    });

    it("an app from it must supply the template's null defaults: said at create, before any write; supplied, it deploys", async () => {
      const dash: Props = { instanceId: vm, name: "dash", templateId: state.tpl.id, domain: "dash.example.com" };
      const { err, mutations: sent } = await upFails("dash", "App", dash);
      expect(err.message).toMatch(/leaves GF_SERVER_DOMAIN for you to supply/);
      expect(sent).toEqual([]);
      await upLogged("dash", "App", { ...dash, environment: { GF_SERVER_DOMAIN: "dash.example.com" } });
      const app = await get(`/v1/apps/${state.dash.id}`);
      expect(app).toMatchObject({
        template_id: state.tpl.id,
        image: "grafana/grafana:11.2.0",
        domain: "dash.example.com",
        environment: { GF_SERVER_HTTP_PORT: "3000", GF_SERVER_DOMAIN: "dash.example.com" },
      });
      expect(app.environment.GF_SECURITY_ADMIN_PASSWORD).toMatch(/^[A-Za-z0-9]{24}$/);
    });

    it("patches every field in place in one PATCH; lists replace; a null category clears it", async () => {
      const id = state.tpl.id;
      Object.assign(tpl, {
        name: "Team Dashboard v2",
        description: "Internal dashboard, upgraded.",
        image: "grafana/grafana:11.3.0",
        category: null,
        environment: [{ key: "GF_SERVER_HTTP_PORT", value: "{{container_port.web}}" }],
        mounts: [],
        ports: [{ name: "web", containerPort: 3000, http: true }],
      });
      const { step, now, mutations: sent } = await upLogged("tpl", "AppTemplate", tpl);
      expect({ step, id: now.id }).toEqual({ step: "update", id });
      expect(writes(sent)).toEqual([`PATCH /v1/app-templates/${id}`]);
      expect(await get(`/v1/app-templates/${id}`)).toMatchObject({
        name: "Team Dashboard v2",
        category: null,
        mounts: [],
        ports: [{ name: "web" }],
        environment: [{ key: "GF_SERVER_HTTP_PORT" }],
      });
    });

    it("a read finds an out-of-band change; the next up sends back only what differs", async () => {
      const id = state.tpl.id;
      expect((await staff().patch(`/v1/app-templates/${id}`, { category: "DEVOPS" })).status).toBe(200);
      await refresh("tpl", "AppTemplate");
      expect(state.tpl.outs.category).toBe("DEVOPS");
      const { step, mutations: sent } = await upLogged("tpl", "AppTemplate", tpl);
      expect(step).toBe("update");
      expect(writes(sent)).toEqual([`PATCH /v1/app-templates/${id}`]);
      expect(sent[0].body).toEqual({ category: null });
    });

    it("adopts a template made by hand by adoptId and converges it", async () => {
      const other = await staff().post("/v1/app-templates", { name: "Hand Made", description: "made by hand", image: "nginx:1.27" });
      expect(other.status).toBe(201);
      const { now } = await upLogged("adopted", "AppTemplate", {
        name: "Hand Made",
        description: "now managed",
        image: "nginx:1.27",
        adoptId: String(other.body.id),
      });
      expect(now.id).toBe(String(other.body.id));
      expect((await get(`/v1/app-templates/${other.body.id}`)).description).toBe("now managed");
    });

    it("reads a template deleted outside Pulumi as gone (no id)", async () => {
      const id = state.tpl.id;
      expect((await staff().delete(`/v1/app-templates/${id}`)).status).toBe(204);
      expect((await refresh("tpl", "AppTemplate")).id).toBe("");
      expect(state.tpl).toBeUndefined();
    });

    it("deletes the app and the templates it made, leaving none", async () => {
      for (const [name, kind] of [
        ["dash", "App"],
        ["adopted", "AppTemplate"],
      ] as const) {
        await ctx().face.delete(kind, state[name].id, state[name].outs);
        delete state[name];
      }
      const inventory = (await ctx().emu.control.get("/_emulator/inventory")).body as { resources: Record<string, unknown[]> };
      expect({ apps: inventory.resources.apps, appTemplates: inventory.resources.appTemplates }).toEqual({ apps: [], appTemplates: [] });
    });
  },
  { staff: true },
);
