/**
 * BgpPrefix on both faces, in process (tests/support/inProcess.ts), in a BGP configuration made
 * through the API (tests/inprocess/support/network.ts: what the network files share): created with
 * an id above 2^53 kept to its exact digits, PUT in place by those digits (enabled, community, its
 * CIDR), max_prefixes reached refused with nothing kept, drift read and put back under the same id,
 * read as gone once its configuration is deleted or replaced outside Pulumi (a configuration takes
 * its prefixes along), a lost create answer recovered without a duplicate, adopted by adoptId and
 * converged, and deleted. The configuration's own cases are bgpConfig.test.ts. The refusals at
 * preview are tests/unit/resources/bgpPrefix.test.ts.
 */
import { describeEachFace, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "BgpPrefix",
  (ctx) => {
    const {
      env,
      state,
      api,
      staff,
      get,
      calls,
      lines,
      upLogged,
      upFails,
      expectSame,
      outs,
      refresh,
      createDespiteLostAnswer,
      adopt,
      inventory,
      deleteAll,
      setup,
      removeFixtures,
    } = networkHarness(ctx);
    const bgpPath = () => `/v1/workspaces/${env.ws}/bgp`;
    const prefixes = async () =>
      (await get(`${bgpPath()}/prefixes`)).items as Array<{ id: bigint; prefix: string; enabled: boolean; community: string }>;
    /** The workspace's BGP configuration, made through the API: its id. */
    const makeConfig = async (body: Props = { asn: 64512, max_prefixes: 3, password: "first-bgp-secret" }) => {
      const made = await api().patch(bgpPath(), body);
      expect(made.status).toBe(200);
      return String(made.body.data.id);
    };
    let pfx: Props = { prefix: "198.51.100.7/24" };

    beforeAll(async () => {
      await setup();
      pfx.configId = await makeConfig();
    });

    it("creates a prefix: its id, a bare JSON integer above 2^53, recorded as its exact digits", async () => {
      expect((await upLogged("pfx", "BgpPrefix", pfx)).step).toBe("create");
      const pfxId = state.pfx.id;
      expect(BigInt(pfxId)).toBeGreaterThan(2n ** 53n);
      const listed = await staff().get(`${bgpPath()}/prefixes`);
      expect(listed.text).toContain(`"id":${pfxId},`);
      expect(listed.body.items.map((p: { id: bigint }) => String(p.id))).toEqual([pfxId]);
      expect((await ctx().emu.control.get(`/_emulator/tables/bgpPrefixes/${pfxId}`)).body).toMatchObject({
        id: pfxId,
        prefix: "198.51.100.0/24",
      });
      expect(outs("pfx")).toMatchObject({
        prefix: "198.51.100.0/24",
        source: "MANUAL",
        enabled: true,
        community: "DEFAULT",
        configId: pfx.configId,
      });
    });

    it("diffs the same declaration as no change and sends no mutating request", async () => {
      await expectSame([["pfx", "BgpPrefix", pfx]]);
    });

    it("changes a prefix in place: one PUT of the entry, addressed by the exact digits recorded", async () => {
      const pfxId = state.pfx.id;
      pfx = { ...pfx, enabled: false, community: "PROTECTED" };
      const { step, now, mutations: logged } = await upLogged("pfx", "BgpPrefix", pfx);
      expect({ step, id: now.id }).toEqual({ step: "update", id: pfxId });
      expect(lines(logged)).toEqual([`PUT ${bgpPath()}/prefixes/${pfxId}`]);
      expect(calls(logged, `${bgpPath()}/prefixes/${pfxId}`)[0].body).toEqual({
        prefix: "198.51.100.0/24",
        source: "MANUAL",
        enabled: false,
        community: "PROTECTED",
      });
      expect(await prefixes()).toEqual([
        { id: BigInt(pfxId), prefix: "198.51.100.0/24", source: "MANUAL", enabled: false, community: "PROTECTED" },
      ]);
    });

    it("changes a prefix's CIDR in place", async () => {
      const pfxId = state.pfx.id;
      pfx = { ...pfx, prefix: "198.51.100.128/25" };
      const { step, now, mutations: logged } = await upLogged("pfx", "BgpPrefix", pfx);
      expect({ step, id: now.id }).toEqual({ step: "update", id: pfxId });
      expect(calls(logged, `${bgpPath()}/prefixes/${pfxId}`)[0].body).toMatchObject({ prefix: "198.51.100.128/25" });
      await expectSame([["pfx", "BgpPrefix", pfx]]);
    });

    it("surfaces the API's refusal once max_prefixes is reached and keeps nothing", async () => {
      expect((await api().patch(bgpPath(), { max_prefixes: 1 })).status).toBe(200);
      const refused = await upFails("pfx2", "BgpPrefix", { prefix: "192.0.2.0/24", configId: pfx.configId });
      expect(refused.message).toMatch(/BgpPrefix 192\.0\.2\.0\/24: .*400.*max_prefixes.*raise the BgpConfig's maxPrefixes/s);
      expect(refused.kept).toBeUndefined();
      expect((await prefixes()).map((p) => p.prefix)).toEqual(["198.51.100.128/25"]);
      expect((await api().patch(bgpPath(), { max_prefixes: 5 })).status).toBe(200);
    });

    it("a read finds an out-of-band change; the next up puts the declaration back under the same id", async () => {
      const pfxId = state.pfx.id;
      const put = await api().put(`${bgpPath()}/prefixes/${pfxId}`, {
        prefix: "198.51.100.128/25",
        source: "MANUAL",
        enabled: true,
        community: "PROTECTED",
      });
      expect(put.status).toBe(200);
      await refresh("pfx", "BgpPrefix");
      expect(outs("pfx").enabled).toBe(true);
      const { step, now } = await upLogged("pfx", "BgpPrefix", pfx);
      expect({ step, id: now.id }).toEqual({ step: "update", id: pfxId });
      expect((await prefixes())[0].enabled).toBe(false);
    });

    it("a read answers no id once its BGP configuration is deleted outside Pulumi: the configuration takes its prefixes along", async () => {
      expect((await api().delete(bgpPath())).status).toBe(200);
      expect((await refresh("pfx", "BgpPrefix")).id).toBe("");
      expect(state.pfx).toBeUndefined();
    });

    it("recreates it even when the create answer is lost: found and adopted, not duplicated", async () => {
      pfx.configId = await makeConfig();
      const logged = await createDespiteLostAnswer("POST", "/v1/workspaces/*/bgp/prefixes", "pfx", "BgpPrefix", pfx);
      // Recovered by looking it up, not by sending again.
      expect(calls(logged, `${bgpPath()}/prefixes`)).toHaveLength(1);
      expect((await prefixes()).map((p) => String(p.id))).toEqual([state.pfx.id]);
      expect((await inventory()).resources.bgpPrefixes).toHaveLength(1);
      await expectSame([["pfx", "BgpPrefix", pfx]]);
    });

    it("adopts a prefix of a configuration made by hand by adoptId and converges it, creating nothing", async () => {
      // The configuration is replaced by one made by hand, with a prefix.
      expect((await api().delete(bgpPath())).status).toBe(200);
      const config = await makeConfig({ asn: 65000, max_prefixes: 4, password: "hand-made-secret" });
      const made = await api().post(`${bgpPath()}/prefixes`, {
        prefix: "198.51.100.128/25",
        source: "MANUAL",
        enabled: true,
        community: "DEFAULT",
      });
      expect(made.status).toBe(201);
      const handPrefix = String(made.body.id);
      // Another configuration's prefix is not the recorded one: it reads as gone.
      expect((await refresh("pfx", "BgpPrefix")).id).toBe("");

      pfx = { ...pfx, configId: config, adoptId: handPrefix };
      await adopt("pfx", "BgpPrefix", pfx);
      expect(state.pfx.id).toBe(handPrefix);
      expect(await prefixes()).toEqual([
        { id: BigInt(handPrefix), prefix: "198.51.100.128/25", source: "MANUAL", enabled: false, community: "PROTECTED" },
      ]);
      await expectSame([["pfx", "BgpPrefix", pfx]]);
    });

    it("deletes everything it made, leaving the inventory empty once the configuration is deleted", async () => {
      await deleteAll([["pfx", "BgpPrefix"]]);
      expect(await prefixes()).toEqual([]);
      expect((await api().delete(bgpPath())).status).toBe(200);
      await removeFixtures(["bgpPrefixes", "bgpConfigs"]);
    });
  },
  { staff: true },
);
