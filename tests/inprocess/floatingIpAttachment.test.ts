/**
 * FloatingIpAttachment on both faces, in process (tests/support/inProcess.ts), on the instances of
 * tests/inprocess/support/network.ts and floating IPs allocated through the API: created with the
 * IP's id as its own, a bad instance id refused at check, moved to another instance in place
 * (detach, then attach), a detach outside Pulumi read and put back under the same id, a lost
 * attach answer recovered without a second attach, adopted by adoptId and converged, and deleted.
 * Its replacement when its IP is replaced, and its read as gone when the IP is released, are
 * floatingIp.test.ts's. The other refusals at preview are tests/unit/resources/floatingIpAttachment.test.ts.
 */
import { describeEachFace, type Logged, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "FloatingIpAttachment",
  (ctx) => {
    const {
      env,
      state,
      api,
      get,
      calls,
      lines,
      upLogged,
      expectSame,
      expectRefusedAtCheck,
      outs,
      refresh,
      createDespiteLostAnswer,
      adopt,
      allocateIp,
      deleteAll,
      setup,
      removeFixtures,
    } = networkHarness(ctx);
    const fipAtt: Props = {};
    const ips: Array<{ id: string; address: string }> = [];
    /** A floating IP of the workspace, which no resource here manages. */
    const anIp = async (family: "IPv4" | "IPv6") => {
      ips.push(await allocateIp(family));
      return ips.at(-1)!;
    };
    const commands = (logged: Logged[]) => calls(logged, /^\/v1\/commands\//);

    beforeAll(async () => {
      await setup();
      Object.assign(fipAtt, { ipId: (await anIp("IPv4")).id, instanceId: env.vm1 });
    });

    it("creates an attachment: its id the IP's id, the address read back", async () => {
      expect((await upLogged("fipAtt", "FloatingIpAttachment", fipAtt)).step).toBe("create");
      expect(state.fipAtt.id).toBe(ips[0].id);
      expect(await get(`/v1/ips/${ips[0].id}`)).toMatchObject({ instance_id: env.vm1 });
      expect(outs("fipAtt")).toMatchObject({ ipId: ips[0].id, instanceId: env.vm1, address: ips[0].address });
    });

    it("diffs the same declaration as no change and sends no mutating request", async () => {
      await expectSame([["fipAtt", "FloatingIpAttachment", fipAtt]]);
    });

    // The other rows of the preview table are the kind's unit tests.
    it("check refuses a bad FloatingIpAttachment id, naming the property and the rule, before any API request", async () => {
      await expectRefusedAtCheck("FloatingIpAttachment", { ...fipAtt, instanceId: "vm-1" }, "instanceId", /must be the instance id/);
    });

    it("moves the IP to another instance in place: detached, then attached", async () => {
      const fipId = state.fipAtt.id;
      fipAtt.instanceId = env.vm2;
      const { step, now, mutations: logged } = await upLogged("fipAtt", "FloatingIpAttachment", fipAtt);
      expect({ step, id: now.id }).toEqual({ step: "update", id: fipId });
      expect(lines(logged)).toEqual(["POST /v1/commands/detach-ip", "POST /v1/commands/attach-ip"]);
      expect(commands(logged).map((m) => m.body)).toEqual([{ ip: fipId }, { ip: fipId, instance: env.vm2 }]);
      expect((await get(`/v1/ips/${fipId}`)).instance_id).toBe(env.vm2);
    });

    it("a read finds the IP detached outside Pulumi; the next up attaches it again under the same id", async () => {
      const fipId = state.fipAtt.id;
      expect((await api().post(`/v1/commands/detach-ip`, { ip: BigInt(fipId) })).status).toBe(200);
      expect((await refresh("fipAtt", "FloatingIpAttachment")).id).toBe(fipId);
      expect(outs("fipAtt").instanceId).toBeNull();
      const { step, now, mutations: logged } = await upLogged("fipAtt", "FloatingIpAttachment", fipAtt);
      expect({ step, id: now.id }).toEqual({ step: "update", id: fipId });
      expect(commands(logged).map((m) => m.path)).toEqual(["/v1/commands/attach-ip"]);
      expect((await get(`/v1/ips/${fipId}`)).instance_id).toBe(env.vm2);
    });

    it("creates one even when the attach answer is lost: found attached, not attached twice", async () => {
      const ip = await anIp("IPv6");
      const dropped = { ipId: ip.id, instanceId: env.vm2 };
      const logged = await createDespiteLostAnswer("POST", "/v1/commands/attach-ip", "dropped", "FloatingIpAttachment", dropped);
      // Recovered by looking it up, not by sending again.
      expect(calls(logged, "/v1/commands/attach-ip")).toHaveLength(1);
      expect(state.dropped.id).toBe(ip.id);
      expect(await get(`/v1/ips/${ip.id}`)).toMatchObject({ family: "IPv6", instance_id: env.vm2 });
      await expectSame([["dropped", "FloatingIpAttachment", dropped]]);
    });

    it("adopts an existing attachment by adoptId and converges it to the declared instance", async () => {
      const ip = await anIp("IPv4");
      expect((await api().post(`/v1/commands/attach-ip`, { ip: BigInt(ip.id), instance: BigInt(env.vm2) })).status).toBe(200);
      const adopted = { ipId: ip.id, instanceId: env.vm1, adoptId: ip.id };
      const logged = await adopt("fipAttAdopted", "FloatingIpAttachment", adopted);
      expect(state.fipAttAdopted.id).toBe(ip.id);
      expect(commands(logged).map((m) => m.path)).toEqual(["/v1/commands/detach-ip", "/v1/commands/attach-ip"]);
      expect((await get(`/v1/ips/${ip.id}`)).instance_id).toBe(env.vm1);
      await expectSame([
        ["fipAtt", "FloatingIpAttachment", fipAtt],
        ["fipAttAdopted", "FloatingIpAttachment", adopted],
      ]);
    });

    it("deletes everything it made, detaching each IP, leaving the inventory empty once the IPs are released", async () => {
      await deleteAll([
        ["fipAttAdopted", "FloatingIpAttachment"],
        ["dropped", "FloatingIpAttachment"],
        ["fipAtt", "FloatingIpAttachment"],
      ]);
      for (const ip of ips) {
        expect({ ip: ip.id, instance: (await get(`/v1/ips/${ip.id}`)).instance_id }).toEqual({ ip: ip.id, instance: null });
        expect((await api().delete(`/v1/ips/${ip.id}`)).status).toBe(204);
      }
      await removeFixtures(["floatingIps"]);
    });
  },
  { staff: true },
);
