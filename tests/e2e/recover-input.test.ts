/**
 * svc-recover's evidence and bad input, on the scenario program (dynamic face): a person's
 * matching object made before the killed run is never taken over; a create killed before it was
 * sent is cleared (and the provider host, its engine gone, sends nothing more); a missing stack
 * and an unreachable API each get a clear answer and no change. A stack with nothing pending is
 * package.test.ts's, where svc-recover runs as a user installs it.
 */
import { startE2E, type Declaration, type E2E } from "./harness";
import { accepted, expectAllGone, killedUp, pendingOf, svcRecover } from "./kill";

jest.setTimeout(600_000);

describe("svc-recover: evidence and bad input", () => {
  let e2e: E2E;
  let planId: string;
  const instance = (name: string): Declaration => ({ type: "Instance", name, args: { name, planId, region: "NA_01" } });
  const declare = (resources: Declaration[]) => e2e.declare(resources);
  const instanceIds = async () =>
    ((await e2e.inventoryTotal()).resources.instances as Array<{ id: string }>).map((i) => String(i.id)).sort();

  beforeAll(async () => {
    e2e = await startE2E("recover-input");
    planId = String(((await e2e.emu.api.get("/v1/plans?limit=1")).body as { items: Array<{ id: string }> }).items[0].id);
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("names a missing stack and exits non-zero", async () => {
    const { code, output } = await svcRecover(e2e, ["--stack", "no-such-stack"]);
    expect(code).toBe(2);
    expect(output).toMatch(/cannot read the stack no-such-stack/);
  });

  it("never takes over a person's matching instance made before the run", async () => {
    // A person's instance with the very name and fields the stack declares (the provider's own
    // create body), made ten minutes ago.
    const body = `{"type":"PLAN","name":"shared","region":"NA_01","plan":${planId},"start":true}`;
    const made = await e2e.emu.api.post(`/v1/workspaces/${e2e.emu.workspaceId}/instances`, undefined, { rawBody: body });
    expect(made.status).toBe(202);
    const persons = String(made.body.resource.id);
    await e2e.emu.waitFor(`/v1/instances/${persons}`, (b: { state: string }) => b.state === "AVAILABLE", 10_000);
    const patched = await e2e.emu.control.patch(`/_emulator/tables/instances/${persons}`, {
      created: new Date(Date.now() - 600_000).toISOString(),
    });
    expect(patched.status).toBe(200);

    await declare([instance("shared")]);
    await killedUp(e2e, (rs) => rs.some(accepted("POST", /\/instances$/)));
    expect(await pendingOf(e2e)).toEqual(["creating shared"]);
    const { code, output } = await svcRecover(e2e);
    expect({ code, output }).toMatchObject({ code: 0 });
    await e2e.up([instance("shared")]);
    const ours = await e2e.idOf("shared");
    expect(ours).not.toBe(persons);
    expect(await instanceIds()).toEqual([ours, persons].sort());

    await e2e.destroy();
    expect(await instanceIds()).toEqual([persons]);
    await e2e.emu.api.delete(`/v1/instances/${persons}`);
  });

  it("changes nothing and prints the commands to choose from when two matching instances were made during the run", async () => {
    await declare([instance("twin")]);
    await killedUp(e2e, async (rs) => {
      const ours = rs.find(accepted("POST", /\/instances$/));
      // A person sends the very same create while ours is in flight.
      const body = `{"type":"PLAN","name":"twin","region":"NA_01","plan":${planId},"start":true}`;
      if (ours) expect((await e2e.emu.api.post(ours.path, undefined, { rawBody: body })).status).toBeLessThan(300);
      return !!ours;
    });
    const twins = await instanceIds();
    expect(twins).toHaveLength(2);
    const before = await e2e.stack.exportStack();
    const unclear = await svcRecover(e2e);
    expect(unclear.code).toBe(1);
    expect(unclear.output).toMatch(/two Instances match the declaration/);
    const urn = (before.deployment.pending_operations as Array<{ resource: { urn: string } }>)[0].resource.urn;
    for (const id of twins) expect(unclear.output).toContain(`npx svc-recover --import '${urn}' ${id}`);
    expect(unclear.output).toContain(`npx svc-recover --clear '${urn}'`);
    expect((await e2e.stack.exportStack()).deployment.pending_operations).toEqual(before.deployment.pending_operations);

    // The person chooses: the stack takes that one, the other is left alone.
    const chosen = await svcRecover(e2e, ["--import", urn, twins[0]]);
    expect(chosen.output).toMatch(/creating twin: made \d+: recorded \(you chose/);
    expect(chosen.code).toBe(0);
    await e2e.up([instance("twin")]);
    expect(await e2e.idOf("twin")).toBe(twins[0]);
    await e2e.destroy();
    expect(await instanceIds()).toEqual([twins[1]]);
    await e2e.emu.api.delete(`/v1/instances/${twins[1]}`);
  });

  it("records a membership whose create was in flight (a kind found by its key only)", async () => {
    const lb: Declaration = { type: "NetLoadBalancer", name: "lb", args: { name: "recover-lb", address: "203.0.113.81" } };
    const member: Declaration = {
      type: "NetLoadBalancerMember",
      name: "member",
      args: { loadBalancerId: { $ref: "lb.id" }, instanceId: { $ref: "vm.id" } },
    };
    // Balancers are Administrator-only (spec part 3): this stack runs with the operator's token.
    const userToken = (await e2e.stack.getConfig("svc:token")).value;
    await e2e.stack.setConfig("svc:token", { value: e2e.emu.emu.staffToken, secret: true });
    await e2e.up([instance("vm"), lb]);
    // The member joins through a workflow: slowed, the create is still waiting at the kill.
    await declare([instance("vm"), lb, member]);
    await killedUp(e2e, (rs) => rs.some(accepted("PUT", /\/net-lbs\/\d+\/instances\/\d+$/)));
    expect(await pendingOf(e2e)).toEqual(["creating member"]);
    const { code, output } = await svcRecover(e2e);
    expect(output).toMatch(/creating member: made \d+:\d+: recorded/);
    expect(code).toBe(0);
    await e2e.up([instance("vm"), lb, member]);
    expect(await e2e.idOf("member")).toBe(`${await e2e.idOf("lb")}:${await e2e.idOf("vm")}`);
    await e2e.destroy();
    await expectAllGone(e2e);
    await e2e.stack.setConfig("svc:token", { value: userToken, secret: true });
  });

  it("leaves everything as it was when the API cannot be reached", async () => {
    // A create killed while its check of the key was still unanswered: the POST was never sent.
    const slow = await e2e.emu.control.post("/_emulator/faults", {
      kind: "slow",
      method: "GET",
      path: "/v1/workspaces/*/k3s",
      delayMs: 60_000,
      times: 1,
    });
    expect(slow.status).toBe(201);
    await declare([{ type: "K3sCluster", name: "cluster" }]);
    const killed = await killedUp(e2e, async () => (await pendingOf(e2e)).includes("creating cluster"));
    await e2e.emu.control.delete("/_emulator/faults");
    // Its engine gone, the provider host sent nothing more: no create reached the API.
    expect(killed.filter((r) => r.method === "POST" && r.path.endsWith("/k3s"))).toEqual([]);

    const before = await e2e.stack.exportStack();
    const baseUrl = (await e2e.stack.getConfig("svc:baseUrl")).value;
    await e2e.stack.setConfig("svc:baseUrl", { value: "http://127.0.0.1:9" });
    const unreachable = await svcRecover(e2e);
    await e2e.stack.setConfig("svc:baseUrl", { value: baseUrl });
    expect(unreachable.code).toBe(2);
    expect(unreachable.output).toMatch(/cannot be reached.*Nothing was changed/s);
    expect(await e2e.stack.exportStack()).toEqual(before);

    // Reachable again: the API shows nothing was made, so the pending create is cleared.
    const { code, output } = await svcRecover(e2e);
    expect({ code, output }).toMatchObject({ code: 0, output: expect.stringMatching(/creating cluster: made nothing: cleared/) });
    await e2e.up([{ type: "K3sCluster", name: "cluster" }]);
    expect(((await e2e.inventoryTotal()).resources.k3sClusters as Array<{ id: string }>).map((c) => String(c.id))).toEqual([
      await e2e.idOf("cluster"),
    ]);
    await e2e.destroy();
    await expectAllGone(e2e);
  });
});
