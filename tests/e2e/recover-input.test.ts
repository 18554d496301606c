/**
 * svc-recover's evidence and bad input, on the scenario program (dynamic face): a person's
 * matching object made before the killed run is never taken over; a create killed before it was
 * sent is cleared (and the provider host, its engine gone, sends nothing more); a stack with
 * nothing pending, a missing stack and an unreachable API each get a clear answer and no change.
 */
import { startE2E, type Declaration, type E2E } from "./harness";
import { accepted, expectAllGone, killedUp, pendingOf, svcRecover } from "./kill";

jest.setTimeout(600_000);

describe("svc-recover: evidence and bad input", () => {
  let e2e: E2E;
  let planId: string;
  const instance = (name: string): Declaration => ({ type: "Instance", name, args: { name, planId, region: "NA_01" } });
  const declare = (resources: Declaration[]) =>
    e2e.stack.setConfig("scenario:resources", { value: JSON.stringify(resources), secret: true });
  const instanceIds = async () =>
    ((await e2e.inventoryTotal()).resources.instances as Array<{ id: string }>).map((i) => String(i.id)).sort();

  beforeAll(async () => {
    e2e = await startE2E("recover-input");
    planId = String(((await e2e.emu.api.get("/v1/plans?limit=1")).body as { items: Array<{ id: string }> }).items[0].id);
  });
  afterAll(async () => {
    await e2e?.stop();
  });

  it("says so and changes nothing when nothing is pending", async () => {
    await e2e.up([instance("calm-1")]);
    const before = await e2e.stack.exportStack();
    const { code, output } = await svcRecover(e2e);
    expect({ code, output }).toMatchObject({ code: 0, output: expect.stringContaining("has no pending operations") });
    expect((await e2e.stack.exportStack()).deployment.resources).toEqual(before.deployment.resources);
    await e2e.destroy();
  });

  it("names a missing stack and exits non-zero", async () => {
    const { code, output } = await svcRecover(e2e, ["--stack", "no-such-stack"]);
    expect(code).toBe(2);
    expect(output).toMatch(/cannot read the stack no-such-stack/);
  });

  it("never takes over a person's matching instance made before the run", async () => {
    // A person's instance with the very name and fields the stack declares, made ten minutes ago.
    await e2e.up([instance("shared")]);
    const persons = await e2e.idOf("shared");
    await e2e.cli(["state", "delete", (await e2e.resource("shared")).urn, "--yes"]);
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

  it("records a membership whose create landed after the kill", async () => {
    const vpc: Declaration = { type: "Vpc", name: "net", args: { name: "recover-net", description: "r", range: "10.77.0.0/16" } };
    const attachment: Declaration = {
      type: "VpcAttachment",
      name: "attach",
      args: { instanceId: { $ref: "vm.id" }, vpcId: { $ref: "net.id" } },
    };
    await e2e.up([vpc, instance("vm")]);
    // The attach request is held by the API for a while: the kill comes while it is in flight.
    await e2e.emu.control.post("/_emulator/faults", {
      kind: "slow",
      method: "POST",
      path: "/v1/instances/*/vpcs",
      delayMs: 5_000,
      times: 1,
    });
    await declare([vpc, instance("vm"), attachment]);
    await killedUp(e2e, async () => (await pendingOf(e2e)).includes("creating attach"));
    // The API still commits it: wait until it answered, as the API would have, then recover.
    while (!(await e2e.requests()).some(accepted("POST", /^\/v1\/instances\/\d+\/vpcs$/))) await new Promise((r) => setTimeout(r, 200));
    await e2e.emu.control.delete("/_emulator/faults");
    const { code, output } = await svcRecover(e2e);
    expect(output).toMatch(/creating attach: made \d+:\d+: recorded/);
    expect(code).toBe(0);
    await e2e.up([vpc, instance("vm"), attachment]);
    expect(await e2e.idOf("attach")).toBe(`${await e2e.idOf("vm")}:${await e2e.idOf("net")}`);
    await e2e.destroy();
    await expectAllGone(e2e);
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
