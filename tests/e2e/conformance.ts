/**
 * Pulumi's standard resource options and stack operations, each as the Pulumi page it cites
 * documents it, through the real engine on one face: conformance-dynamic.test.ts (the dynamic
 * resources of pulumi-svc) and conformance-plugin.test.ts (the typed classes of sdk/nodejs over the
 * provider plugin) run these same cases with the same expectations. Each case ends with the
 * stack's state against the emulator's inventory, and starts from the seed and an empty stack; the one place the
 * faces differ is named where it is asserted (docs/guides/options-and-limits.md).
 */
import { changes, failureOf, markedSecret, startE2E, type Declaration, type E2E, type Face, type LoggedRequest } from "./harness";
import { expectAllGone, expectStateMatchesInventory } from "./inventory";
import { pulumiVersion, versionAtLeast } from "../support/pulumiCli";
import { ed25519 } from "../support/sshKeys";

const DOCS = "https://www.pulumi.com/docs/iac";
const GiB = 1024 ** 3;

const PUBLIC_KEY = ed25519(9, "conformance@ci");

const ACCOUNTS = { "ghcr.io": { "octo-bot": "ghp_emulatorToken", "octo-ci": "ghp_second" } };

const vpc = (name: string, args: Record<string, unknown> = {}, opts?: Record<string, unknown>): Declaration => ({
  type: "Vpc",
  name,
  args: { name: `cf-${name}`, description: "conformance", range: "10.60.0.0/16", ...args },
  ...(opts ? { opts } : {}),
});

/** The engine's counts of what changed, `same` left out. */
const changed = (result: { summary?: { resourceChanges?: Record<string, number> }; changeSummary?: Record<string, number> }) => {
  const counts = { ...("changeSummary" in result && result.changeSummary ? result.changeSummary : changes(result as never)) };
  delete counts.same;
  return counts;
};

/** The sequence number of the first POST whose body holds `text`. */
const postedWith = (requests: LoggedRequest[], text: string) =>
  requests.find((r) => r.method === "POST" && JSON.stringify(r.body).includes(text))?.seq ?? -1;

/** The sequence number of the first logged request matching. */
const seqOf = (requests: LoggedRequest[], method: string, path: RegExp) =>
  requests.find((r) => r.method === method && path.test(r.path))?.seq ?? -1;

export function describeConformance(face: Face): void {
  describe(`Pulumi's resource options and stack operations, ${face} face`, () => {
    let e2e: E2E;
    let planId: string;
    let restoreState: () => Promise<void>;
    const api = () => e2e.emu.api;
    /** Ends a case: the stack's state against the emulator's inventory. */
    const settled = () => expectStateMatchesInventory(e2e);

    beforeAll(async () => {
      // One kind named as pulumi:autonaming asks (the replacement case); every other is declared with a name.
      e2e = await startE2E(`conformance-${face}`, {
        face,
        configPaths: { [`pulumi:autonaming.providers.svc.resources["svc:index:SshKey"].pattern`]: "${stack}-${name}-${hex(4)}" },
      });
      planId = String(
        ((await api().get("/v1/plans", { name: "lightning-1" })).body.items as Array<{ id: string; name: string }>).find(
          (p) => p.name === "lightning-1",
        )!.id,
      );
      // The stack resource exists from here on, so each case's counts of changes are its own.
      await e2e.up([]);
      restoreState = await e2e.saveState();
    });
    // Each case starts where beforeAll left things, whether it passed or not: the emulator at its
    // seed (plans are seed rows: their ids stay), the stack's checkpoint as saved. Not an up of
    // nothing: that is an engine run per case, and a case that proves a deletion runs its own.
    beforeEach(async () => {
      expect((await e2e.emu.control.post("/_emulator/reset")).status).toBe(204);
      expect((await e2e.emu.control.post("/_emulator/settings", { registryAccounts: ACCOUNTS })).status).toBe(200);
      await restoreState();
    });
    afterAll(async () => {
      await restoreState?.(); // what the last case made goes with the emulator: no destroy run
      await e2e?.stop();
    });

    // One stack for both halves of the option: the program's change, then the API's.
    it(`ignoreChanges: an ignored input changed in the program is not sent; a value changed outside Pulumi is kept by up --refresh, not written back, and recorded (${DOCS}/concepts/options/ignorechanges/)`, async () => {
      const declared = (description: string) => [vpc("ign", { description }, { ignoreChanges: ["description"] })];
      await e2e.up(declared("first"));
      const id = await e2e.idOf("ign");
      const inProgram = await e2e.lastSeq();
      expect(changed(await e2e.preview(declared("second")))).toEqual({});
      expect(changed(await e2e.up(declared("second")))).toEqual({});
      expect(await e2e.mutations(inProgram)).toEqual([]);
      expect((await api().get(`/v1/vpcs/${id}`)).body.description).toBe("first");

      await api().patch(`/v1/vpcs/${id}`, { description: "edited in the API" });
      const outside = await e2e.lastSeq();
      await e2e.up(declared("second"), { refresh: true });
      expect(await e2e.mutations(outside)).toEqual([]);
      expect((await api().get(`/v1/vpcs/${id}`)).body.description).toBe("edited in the API");
      expect((await e2e.outputsOf("ign")).description).toBe("edited in the API");
      expect(changed(await e2e.preview(declared("second")))).toEqual({});
      await settled();
    });

    describe(`replaceOnChanges (${DOCS}/concepts/options/replaceonchanges/)`, () => {
      it("a change the provider makes in place replaces the resource instead, at preview and at up", async () => {
        const declared = (description: string) => [vpc("roc", { description }, { replaceOnChanges: ["description"] })];
        await e2e.up(declared("a"));
        const before = await e2e.idOf("roc");
        expect(changed(await e2e.preview(declared("b")))).toEqual({ replace: 1 });
        expect(changed(await e2e.up(declared("b")))).toEqual({ replace: 1 });
        expect(await e2e.idOf("roc")).not.toBe(before);
        expect((await api().get(`/v1/vpcs/${before}`)).status).toBe(404);
        await settled();
      });

      it("a nested path replaces only when the leaf it names changes", async () => {
        const recipe = (label: string, required: boolean): Declaration[] => [
          {
            type: "Recipe",
            name: "rcp",
            args: {
              name: "cf-recipe",
              category: "TOOLS",
              description: "# conformance",
              commands: [{ path: "/opt/cf/install.sh", args: [] }],
              fields: [{ id: "GREETING", label, type: "TEXT", required }],
            },
            opts: { replaceOnChanges: ["fields[*].label"] },
          },
        ];
        await e2e.up(recipe("Greeting", true));
        const first = await e2e.idOf("rcp");
        expect(changed(await e2e.up(recipe("Greeting", false)))).toEqual({ update: 1 });
        expect(await e2e.idOf("rcp")).toBe(first);
        expect(changed(await e2e.up(recipe("Salutation", false)))).toEqual({ replace: 1 });
        expect(await e2e.idOf("rcp")).not.toBe(first);
        await settled();
      });
    });

    // Four replacements in one up, each ordered its own way, and names made where none is declared.
    it(`deleteBeforeReplace deletes the old object before creating its replacement, as the replacement of an object holding a natural key does by itself; a resource declared without a name is autonamed, as pulumi:autonaming asks, and its replacement named anew and created first (${DOCS}/concepts/options/deletebeforereplace/, concepts/resources/names/#autonaming)`, async () => {
      const registry = (username: string, password: string): Declaration => ({
        type: "RegistryCredential",
        name: "reg",
        args: { registry: "ghcr.io", username, password: { $secret: password } },
        opts: { replaceOnChanges: ["username"] },
      });
      const unnamed = (range: string): Declaration => ({ type: "Vpc", name: "auto", args: { description: "autonamed", range } });
      const key: Declaration = { type: "SshKey", name: "key", args: { publicKey: PUBLIC_KEY } };
      await e2e.up([vpc("dbr"), vpc("cbd"), registry("octo-bot", "ghp_emulatorToken"), unnamed("10.63.0.0/16"), key]);
      const [dbr, cbd, reg, auto] = [await e2e.idOf("dbr"), await e2e.idOf("cbd"), await e2e.idOf("reg"), await e2e.idOf("auto")];
      const autoName = (await e2e.resource("auto")).outputs.name as string;
      expect(autoName).toMatch(/^auto-[0-9a-f]{7}$/);
      expect((await e2e.resource("key")).outputs.name).toMatch(/^e2e-key-[0-9a-f]{4}$/);
      const since = await e2e.lastSeq();
      const replaced = await e2e.up([
        vpc("dbr", { range: "10.61.0.0/16" }, { deleteBeforeReplace: true }),
        vpc("cbd", { range: "10.62.0.0/16" }),
        registry("octo-ci", "ghp_second"),
        unnamed("10.64.0.0/16"),
        key,
      ]);
      expect(changed(replaced)).toEqual({ replace: 4 });
      const requests = await e2e.requests(since);
      // The engine checks a replacement again with no recorded inputs: its name is made anew, so it may be created first.
      const renamed = (await e2e.resource("auto")).outputs.name as string;
      expect(renamed).toMatch(/^auto-[0-9a-f]{7}$/);
      expect(renamed).not.toBe(autoName);
      expect(seqOf(requests, "DELETE", new RegExp(`/vpcs/${auto}$`))).toBeGreaterThan(postedWith(requests, renamed));
      const created = (name: string) => postedWith(requests, `cf-${name}`);
      expect(seqOf(requests, "DELETE", new RegExp(`/vpcs/${dbr}$`))).toBeLessThan(created("dbr"));
      // Without the option, the engine creates the replacement first.
      expect(seqOf(requests, "DELETE", new RegExp(`/vpcs/${cbd}$`))).toBeGreaterThan(created("cbd"));
      // A registry's host and username are unique (spec part 1): the provider asks for the old one to go first.
      expect(seqOf(requests, "DELETE", new RegExp(`/registries/${reg}$`))).toBeGreaterThan(0);
      expect(seqOf(requests, "DELETE", new RegExp(`/registries/${reg}$`))).toBeLessThan(seqOf(requests, "POST", /\/registries$/));
      await settled();
    });

    it(`protect stops the deletion of a protected resource until the option is lifted (${DOCS}/concepts/options/protect/)`, async () => {
      await e2e.up([vpc("guarded", {}, { protect: true })]);
      const id = await e2e.idOf("guarded");
      expect(await e2e.upFails([])).toMatch(/protect/);
      expect((await api().get(`/v1/vpcs/${id}`)).status).toBe(200);
      expect(await e2e.idOf("guarded")).toBe(id);
      await e2e.up([vpc("guarded", {}, { protect: false })]);
      await settled();
    });

    // Two options in one stack's ups: the secret output is kept through the rename's up too.
    it(`aliases carry a renamed resource over with its object, no write; additionalSecretOutputs keeps a named output secret in state (${DOCS}/concepts/options/aliases/, additionalsecretoutputs/)`, async () => {
      const hush = vpc("hush", { name: "cf-hush" }, { additionalSecretOutputs: ["vlan"] });
      await e2e.up([vpc("before-rename", { name: "cf-renamed" }), hush]);
      const id = await e2e.idOf("before-rename");
      const since = await e2e.lastSeq();
      const result = await e2e.up([vpc("after-rename", { name: "cf-renamed" }, { aliases: [{ name: "before-rename" }] }), hush]);
      expect(changed(result)).toEqual({});
      expect(await e2e.idOf("after-rename")).toBe(id);
      expect(await e2e.mutations(since)).toEqual([]);
      const { outputs } = await e2e.resource("hush");
      expect(markedSecret(outputs.vlan)).toBe(true);
      expect(markedSecret(outputs.range)).toBe(false);
      await settled();
    });

    it(`dependsOn orders creation after the dependency is done, and deletion before it (${DOCS}/concepts/options/dependson/)`, async () => {
      // The disk's workflow takes a while: without the dependency, the VPC would be sent at once.
      await e2e.emu.control.post("/_emulator/settings", { workflowMs: 1500 });
      const since = await e2e.lastSeq();
      await e2e.up([
        { type: "Disk", name: "first", args: { name: "cf-first", size: 10 * GiB, backend: "LOCAL", region: "NA_01" } },
        vpc("second", { name: "cf-second" }, { dependsOn: ["first"] }),
      ]);
      await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
      const [disk, second] = [await e2e.idOf("first"), await e2e.idOf("second")];
      const created = await e2e.requests(since);
      const lastDiskRead = Math.max(...created.filter((r) => r.method === "GET" && r.path === `/v1/disks/${disk}`).map((r) => r.seq));
      expect(postedWith(created, "cf-second")).toBeGreaterThan(lastDiskRead);
      await e2e.up([]);
      const requests = await e2e.requests(since);
      expect(seqOf(requests, "DELETE", new RegExp(`/vpcs/${second}$`))).toBeLessThan(
        seqOf(requests, "DELETE", new RegExp(`/disks/${disk}$`)),
      );
      await settled();
    });

    // One up and one up of nothing for three options that act when a stack lets resources go.
    it(`when the stack lets resources go: retainOnDelete leaves the object in the API, a parent's child is deleted before it, and deletedWith sends no delete for what goes with its owner (${DOCS}/concepts/options/retainondelete/, parent/, deletedwith/)`, async () => {
      await e2e.up([
        vpc("kept", {}, { retainOnDelete: true }),
        vpc("outer", { name: "cf-outer" }),
        vpc("inner", { name: "cf-inner" }, { parent: "outer" }),
        { type: "Instance", name: "vm", args: { name: "cf-vm", planId, region: "NA_01" } },
        {
          type: "FirewallRule",
          name: "ssh",
          args: { instanceId: { $ref: "vm.id" }, type: "IPv4", protocol: "TCP", action: "ACCEPT", portStart: 22 },
          opts: { deletedWith: "vm" },
        },
      ]);
      const inner = await e2e.resource("inner");
      expect(inner.urn).toMatch(/:Vpc\$.*:Vpc::inner$/);
      const [kept, outer, vm] = [await e2e.idOf("kept"), await e2e.idOf("outer"), await e2e.idOf("vm")];
      const since = await e2e.lastSeq();
      await e2e.up([]);
      expect(await e2e.state()).toEqual([]);
      const requests = await e2e.requests(since);
      const deletes = requests.filter((r) => r.method === "DELETE").map((r) => r.path);
      // retainOnDelete: no delete sent, the object still there (then removed by hand).
      expect(deletes).not.toContain(`/v1/vpcs/${kept}`);
      expect((await api().get(`/v1/vpcs/${kept}`)).status).toBe(200);
      expect((await api().delete(`/v1/vpcs/${kept}`)).status).toBe(200);
      // parent: the child goes first.
      expect(seqOf(requests, "DELETE", new RegExp(`/vpcs/${inner.id}$`))).toBeLessThan(
        seqOf(requests, "DELETE", new RegExp(`/vpcs/${outer}$`)),
      );
      // deletedWith: the instance's delete is the only one for the instance and its rule.
      expect(deletes.filter((p) => !p.startsWith("/v1/vpcs/"))).toEqual([`/v1/instances/${vm}`]);
      await settled();
    });

    describe(`customTimeouts (${DOCS}/concepts/options/customtimeouts/)`, () => {
      const disk = (opts: Record<string, unknown>, args: Record<string, unknown> = {}): Declaration[] => [
        { type: "Disk", name: "slow", args: { name: "cf-slow", size: 10 * GiB, backend: "LOCAL", region: "NA_01", ...args }, opts },
      ];
      it("is the create's deadline: the create stops at it, and the object stays in the stack", async () => {
        // Without the option the create would wait the workflow's 8 s out (the default deadline is 20m).
        await e2e.emu.control.post("/_emulator/settings", { workflowMs: 8000 });
        expect(await e2e.upFails(disk({ customTimeouts: { create: "2s" } }))).toMatch(
          /Disk "cf-slow".*create did not finish before its deadline/s,
        );
        const id = await e2e.idOf("slow");
        await e2e.emu.control.post("/_emulator/settings", { workflowMs: 150 });
        await e2e.up(disk({}));
        expect(await e2e.idOf("slow")).toBe(id);
        await settled();
      });

      it("gives way to the timeouts input where it names the operation", async () => {
        await e2e.emu.control.post("/_emulator/settings", { workflowMs: 4000 });
        await e2e.up(disk({ customTimeouts: { create: "1s" } }, { timeouts: { create: "1m" } }));
        expect((await api().get(`/v1/disks/${await e2e.idOf("slow")}`)).body.state).toBe("AVAILABLE");
        await settled();
      });
    });

    describe(`import (${DOCS}/concepts/options/import/)`, () => {
      const made = async (description: string) =>
        String(
          (await api().post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, { name: "cf-legacy", description, range: "10.70.0.0/16" })).body
            .id,
        );
      const declared = (id: string, description: string) => [
        vpc("legacy", { name: "cf-legacy", description, range: "10.70.0.0/16" }, { import: id }),
      ];

      it("adopts an object whose every declared input matches, with no write; the next preview is clean", async () => {
        const id = await made("made by hand");
        const since = await e2e.lastSeq();
        const result = await e2e.up(declared(id, "made by hand"));
        // The one difference left: the dynamic host cannot serve the engine's import, so the engine counts a create.
        expect(changed(result)).toEqual(face === "plugin" ? { import: 1 } : { create: 1 });
        expect(await e2e.mutations(since)).toEqual([]);
        expect(await e2e.idOf("legacy")).toBe(id);
        expect(changed(await e2e.preview(declared(id, "made by hand")))).toEqual({});
        await settled();
      });

      // What an import of an object that differs from the declaration does, by face and engine: the
      // engine's own import (the plugin) refused it until pulumi 3.174, which imports and then
      // updates; the dynamic face never writes on import and points to adoptId for that.
      const onMismatch = face === "plugin" && versionAtLeast(pulumiVersion(), "3.174.0") ? "imported, then updated" : "refused";

      it(`inputs that differ: ${onMismatch}, the differing property named`, async () => {
        const id = await made("made by hand");
        const since = await e2e.lastSeq();
        const preview = await e2e.preview(declared(id, "declared otherwise")).then(
          (result) => ({ failed: "", output: result.stdout + result.stderr }),
          (err: Error) => ({ failed: err.message, output: err.message }),
        );
        expect(preview.output).toMatch(/description/);
        if (onMismatch === "imported, then updated") {
          expect(changed(await e2e.up(declared(id, "declared otherwise")))).toEqual({ import: 1, update: 1 });
          expect((await e2e.mutations(since)).map((r) => r.method)).toEqual(["PATCH"]);
          expect((await api().get(`/v1/vpcs/${id}`)).body.description).toBe("declared otherwise");
        } else {
          // At preview the dynamic face fails, naming the way out; the engine's own import only warns.
          expect(preview.output).toMatch(/inputs to import do not match the existing resource/);
          if (face === "dynamic") expect(preview.failed).toMatch(/set adoptId instead of the import option/);
          expect(await e2e.upFails(declared(id, "declared otherwise"))).toMatch(
            /inputs to import do not match the existing resource.*description/s,
          );
          expect(await e2e.mutations(since)).toEqual([]);
          expect(await e2e.state()).toEqual([]);
          expect((await api().delete(`/v1/vpcs/${id}`)).status).toBe(200);
        }
        await settled();
      });
    });

    it("a preview of an in-place update: what the update cannot change is known through the plugin only", async () => {
      const declared = (description: string) => [
        vpc("source", { name: "cf-source", description }),
        vpc("reader", { name: "cf-reader", description: { $ref: "source.createdAt" } }),
      ];
      await e2e.up(declared("a"));
      // The dynamic host cannot preview an update, so every output of source is unknown until up,
      // and reader shows an update that up then finds is none (docs/guides/options-and-limits.md).
      expect(changed(await e2e.preview(declared("b")))).toEqual({ update: face === "plugin" ? 1 : 2 });
      expect(changed(await e2e.up(declared("b")))).toEqual({ update: 1 });
      await settled();
    });

    it(`pulumi import (the command) adopts an object through the plugin only (${DOCS}/cli/commands/pulumi_import/)`, async () => {
      const id = String(
        (
          await api().post(`/v1/workspaces/${e2e.emu.workspaceId}/vpcs`, {
            name: "cf-cli-import",
            description: "by hand",
            range: "10.72.0.0/16",
          })
        ).body.id,
      );
      const type = face === "plugin" ? "svc:index:Vpc" : "pulumi-nodejs:dynamic/svc:Vpc";
      const since = await e2e.lastSeq();
      // --protect=false: the command protects what it imports by default, and the case ends with a delete.
      const printed = await e2e
        .cli(["import", type, "imported", id, "--yes", "--protect=false"])
        .catch((err: { stdout?: string; stderr?: string }) => `${err.stdout}${err.stderr}`);
      expect(await e2e.mutations(since)).toEqual([]);
      if (face === "plugin") {
        expect(printed).toContain('new svc.Vpc("imported"');
        expect(await e2e.idOf("imported")).toBe(id);
      } else {
        // The engine reads through the dynamic-provider host, which finds no provider in an import
        // (docs/guides/options-and-limits.md): the program's import option or adoptId instead.
        expect(printed).toContain("code must be a string, not undefined");
        expect(await e2e.state()).toEqual([]);
        expect((await api().delete(`/v1/vpcs/${id}`)).status).toBe(200);
      }
      await settled();
    });

    // One update for three options, to spend one stack's ups on them: the anchor's trigger changes,
    // the follower's inputs do not, and two VPCs change their description, one with its diff hidden.
    it(`replacementTrigger replaces when its value changes and only then, replaceWith replaces with the resource it names, hideDiffs leaves a property's values out of the shown diff (${DOCS}/concepts/options/replacementtrigger/, replacewith/, hidediffs/)`, async () => {
      // Not stack outputs: the outputs' diff shows every value, whatever the resource's option.
      const declared = (trigger: string, description: string): Declaration[] =>
        [
          vpc("anchor", { name: "cf-anchor" }, { replacementTrigger: trigger }),
          vpc("follower", { name: "cf-follower" }, { replaceWith: ["anchor"] }),
          vpc("hidden", { name: "cf-hidden", description: `${description}-hidden` }, { hideDiffs: ["description"] }),
          vpc("shown", { name: "cf-shown", description: `${description}-shown` }),
        ].map((d) => ({ ...d, unexported: true }));
      await e2e.up(declared("2026-11", "before"));
      const [anchor, follower] = [await e2e.idOf("anchor"), await e2e.idOf("follower")];
      expect(changed(await e2e.preview(declared("2026-11", "before")))).toEqual({});
      const preview = await e2e.preview(declared("2026-12", "after"));
      expect(changed(preview)).toEqual({ replace: 2, update: 2 });
      expect(preview.stdout).toContain('~ description: "before-shown" => "after-shown"');
      // How the engine (3.274.1, backend/display/diff.go) shows it depends on the provider's diff: the
      // plugin's detailed diff, its one entry hidden, leaves none, so the old inputs are listed as
      // unchanged; the dynamic host gives no detailed diff, so the property is named as hidden.
      expect(preview.stdout).toMatch(face === "plugin" ? /\n {8}description: "before-hidden"\n/ : /\n {6}~ description \(hidden\)\n/);
      expect(preview.stdout).not.toContain("after-hidden");
      expect(changed(await e2e.up(declared("2026-12", "after")))).toEqual({ replace: 2, update: 2 });
      for (const [name, before] of Object.entries({ anchor, follower })) {
        expect(await e2e.idOf(name)).not.toBe(before);
        expect((await api().get(`/v1/vpcs/${before}`)).status).toBe(404);
      }
      expect((await api().get(`/v1/vpcs/${await e2e.idOf("hidden")}`)).body.description).toBe("after-hidden");
      await settled();
    });

    it("envVarMappings gives an explicit provider's process a setting from a variable of another name", async () => {
      // The provider declares no token: SVC_TOKEN, its fallback, is what the engine maps CF_MAPPED_TOKEN to.
      const declared: Declaration[] = [
        {
          type: "Provider",
          name: "mapped",
          args: { baseUrl: e2e.emu.emu.url, workspaceId: e2e.emu.workspaceId },
          opts: { envVarMappings: { CF_MAPPED_TOKEN: "SVC_TOKEN" } },
          unexported: true,
        },
        vpc("through-mapped", { name: "cf-mapped" }, { provider: "mapped" }),
      ];
      const env = (e2e.stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
      expect(await failureOf(e2e.preview(declared))).toMatch(/no API token: set .*or SVC_TOKEN/);
      env.CF_MAPPED_TOKEN = e2e.emu.emu.token;
      try {
        await e2e.up(declared);
        expect((await api().get(`/v1/vpcs/${await e2e.idOf("through-mapped")}`)).body.name).toBe("cf-mapped");
        await settled();
      } finally {
        delete env.CF_MAPPED_TOKEN;
      }
    });

    it("resource hooks cannot be registered from a Node.js program: the 3.163 Node.js host's monitor proxy answers UNIMPLEMENTED", async () => {
      const since = await e2e.lastSeq();
      expect(await e2e.upFails([vpc("hooked", {}, { logAfterCreate: true })])).toContain(
        "12 UNIMPLEMENTED: unknown method RegisterResourceHook",
      );
      expect(await e2e.mutations(since)).toEqual([]);
      await expectAllGone(e2e);
    });

    it("an input the spec refuses fails pulumi preview, naming the property and the rule, before any write", async () => {
      // Each kind's rules are tests/unit/resources/<kind>.test.ts; this is the engine's part, once per face.
      const since = await e2e.lastSeq();
      const message = await failureOf(e2e.preview([vpc("refused", { range: "8.8.0.0/16" })]));
      expect(message).toMatch(/range/);
      expect(message).toMatch(/must be an RFC 1918 private range .*\(spec part 3, VPCs\)/);
      expect(await e2e.mutations(since)).toEqual([]);
      await expectAllGone(e2e);
    });

    // Two commands that act on part of a stack, on one stack's up.
    it(`pulumi up --target changes only the targeted resource; pulumi state delete forgets a resource and leaves its object in the API (${DOCS}/cli/commands/pulumi_up/, pulumi_state_delete/)`, async () => {
      const forgotten = vpc("forgotten");
      await e2e.up([vpc("aimed", { name: "cf-aimed" }), vpc("spared", { name: "cf-spared" }), forgotten]);
      const [aimed, spared] = [await e2e.resource("aimed"), await e2e.resource("spared")];
      const result = await e2e.up(
        [vpc("aimed", { name: "cf-aimed", description: "new" }), vpc("spared", { name: "cf-spared", description: "new" }), forgotten],
        { target: [aimed.urn] },
      );
      expect(changed(result)).toEqual({ update: 1 });
      expect((await api().get(`/v1/vpcs/${aimed.id}`)).body.description).toBe("new");
      expect((await api().get(`/v1/vpcs/${spared.id}`)).body.description).toBe("conformance");

      const { urn, id } = await e2e.resource("forgotten");
      await e2e.cli(["state", "delete", urn, "--yes"]);
      expect((await e2e.state()).map((r) => r.urn.split("::").pop()).sort()).toEqual(["aimed", "spared"]);
      expect((await api().get(`/v1/vpcs/${id}`)).status).toBe(200);
      expect((await api().delete(`/v1/vpcs/${id}`)).status).toBe(200);
      await settled();
    });

    // One refresh for all it records: an object gone, and objects changed, a secret among them.
    it(`refresh drops a resource deleted outside Pulumi and records changes made outside it, so the preview names exactly those; up recreates the one and puts the others' declarations back (${DOCS}/cli/commands/pulumi_refresh/)`, async () => {
      // maxPrefixes is not declared: the API's value of it is neither drift nor "removed".
      const bgp: Declaration = { type: "BgpConfig", name: "bgp", args: { asn: 64512, password: "declared-secret" } };
      const declared = [vpc("gone"), vpc("drift"), bgp];
      await e2e.up(declared);
      const [gone, drift] = [await e2e.idOf("gone"), await e2e.idOf("drift")];
      expect((await api().delete(`/v1/vpcs/${gone}`)).status).toBe(200);
      await api().patch(`/v1/vpcs/${drift}`, { description: "edited in the API" });
      await api().patch(`/v1/workspaces/${e2e.emu.workspaceId}/bgp`, { password: "changed-in-the-api" });
      await e2e.refresh();
      expect((await e2e.state()).map((r) => r.urn.split("::").pop()).sort()).toEqual(["bgp", "drift"]);
      expect((await e2e.outputsOf("drift")).description).toBe("edited in the API");
      const preview = await e2e.preview(declared);
      expect(changed(preview)).toEqual({ create: 1, update: 2 });
      // Every changed property the diff shows, the create's own left out.
      const diff = preview.stdout.slice(0, preview.stdout.indexOf("--outputs:--"));
      const shown = diff
        .match(/^ +[-+~] \w+ *: .*$/gm)
        ?.map((l) => l.trim().replace(/ +:/, ":"))
        .sort();
      expect(shown).toEqual([
        '~ description: "edited in the API" => "conformance"',
        // The plugin marks the secret's change; the engine shows a dynamic resource's diff from its
        // inputs and compares no secrets there (pulumi/pulumi#16687): the refresh's notice names it.
        ...(face === "plugin" ? ["~ password: [secret] => [secret]"] : []),
      ]);
      if (face === "dynamic") expect(diff).toMatch(/\n +password +: \[secret\]\n/);
      expect(preview.stdout).not.toContain("changed-in-the-api");
      expect(changed(await e2e.up(declared))).toEqual({ create: 1, update: 2 });
      expect((await api().get(`/v1/vpcs/${drift}`)).body.description).toBe("conformance");
      expect((await api().get(`/v1/workspaces/${e2e.emu.workspaceId}/bgp`)).body.live.password).toBe("declared-secret");
      expect(changed(await e2e.preview(declared, { expectNoChanges: true }))).toEqual({});
      await settled();
    });

    it(`an update plan saved by preview is what up applies (${DOCS}/concepts/update-plans/)`, async () => {
      // Not a stack output: with a whole resource exported, up --plan exits 255 with no message on
      // either face (the engine's, pulumi 3.163), though the update itself is done.
      const planned = (args: Record<string, unknown> = {}) => [{ ...vpc("planned", args), unexported: true }];
      await e2e.up(planned());
      const plan = `${e2e.dir}/plan.json`;
      await e2e.preview(planned({ description: "planned change" }), { plan });
      expect(changed(await e2e.up(planned({ description: "planned change" }), { plan }))).toEqual({ update: 1 });
      expect((await api().get(`/v1/vpcs/${await e2e.idOf("planned")}`)).body.description).toBe("planned change");
      await settled();
    });

    it(`pulumi up --parallel 1 converges one step at a time (${DOCS}/cli/commands/pulumi_up/)`, async () => {
      const three = ["p1", "p2", "p3"].map((n) => vpc(n, { name: `cf-${n}` }));
      expect(changed(await e2e.up(three, { parallel: 1 }))).toEqual({ create: 3 });
      expect(changed(await e2e.up(three, { parallel: 1, expectNoChanges: true }))).toEqual({});
      await settled();
    });
  });
}
