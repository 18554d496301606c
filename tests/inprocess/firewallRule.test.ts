/**
 * FirewallRule on both faces, in process (tests/support/inProcess.ts), on an instance of
 * tests/inprocess/support/compute.ts: replaced on its port, read as gone once deleted outside
 * Pulumi and made again. Its create and its no-change diff are instance.test.ts's first cases (the
 * rule is made on an instance there); every replace field, adoption and a failed create are
 * fields.test.ts. The refusals at preview are tests/unit/resources/firewallRule.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { computeHarness } from "./support/compute";

describeEachFace("FirewallRule", (ctx) => {
  const { state, api, upLogged, rule, setup, hosts, replacesOnChange } = computeHarness(ctx);

  beforeAll(async () => {
    await setup();
    await hosts();
    await upLogged("ssh", "FirewallRule", rule);
  });

  it.each([
    [
      "a firewall rule's port",
      "ssh",
      "FirewallRule",
      () => Object.assign(rule, { portStart: 2222 }),
      "portStart",
      (id: string) => `/v1/firewall-rules/${id}`,
    ],
  ])("replaces on a change of %s: new id, old one gone", async (_what, name, kind, change, field, path) => {
    await replacesOnChange(name, kind, change, field, path);
  });

  it("a read of a firewall rule deleted outside Pulumi answers no id (the engine drops it)", async () => {
    const id = state.ssh.id;
    expect((await api().delete(`/v1/firewall-rules/${id}`)).status).toBe(200);
    expect((await ctx().face.read("FirewallRule", id, state.ssh.outs, state.ssh.inputs)).id).toBe("");
    delete state.ssh;
    expect((await upLogged("ssh", "FirewallRule", rule)).step).toBe("create");
  });
});
