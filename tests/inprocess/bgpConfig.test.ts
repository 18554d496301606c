/**
 * BgpConfig on both faces, in process (tests/support/inProcess.ts), on the instances of
 * tests/inprocess/support/network.ts: created and checked against the API (the password read back
 * decrypted, a secret output on the plugin face), patched in place (the request log masking the
 * password) and its endpoint cleared, a password changed outside Pulumi read (as secret as the
 * declared one) and put back under the same id, deleted outside Pulumi read as gone, a lost create
 * answer recovered, an existing configuration never taken over without adoptId (which names it),
 * adopted by adoptId, and deleted. Its prefixes are bgpPrefix.test.ts's. The refusals at preview are
 * tests/unit/resources/bgpConfig.test.ts; an output marked secret kept as ciphertext in the state
 * file is tests/e2e/access.test.ts and tests/e2e/conformance.ts (additionalSecretOutputs).
 */
import { describeEachFace, secret, type Props } from "../support/inProcess";
import { networkHarness } from "./support/network";

describeEachFace(
  "BgpConfig",
  (ctx) => {
    const {
      env,
      state,
      face,
      api,
      get,
      lastSeq,
      mutations,
      calls,
      lines,
      upLogged,
      upFails,
      expectSame,
      outs,
      secretsOf,
      refresh,
      createDespiteLostAnswer,
      adopt,
      inventory,
      deleteAll,
      setup,
      removeFixtures,
    } = networkHarness(ctx);
    const bgpPath = () => `/v1/workspaces/${env.ws}/bgp`;
    /** A program's secret input: the engine sends it as a secret to the plugin; the dynamic host takes plain values only. */
    const secretIn = (value: string) => (face().name === "plugin" ? secret(value) : value);
    /** What the plugin marks secret; the dynamic face answers plain values (the generated class names it in additionalSecretOutputs). */
    const secretOnPlugin = () => (face().name === "plugin" ? ["password"] : []);
    let bgp: Props = { asn: 64512, maxPrefixes: 3 };

    beforeAll(async () => {
      await setup();
      bgp.password = secretIn("first-bgp-secret");
    });

    it("creates the configuration: the password read back decrypted, and recorded secret by the plugin", async () => {
      expect((await upLogged("bgp", "BgpConfig", bgp)).step).toBe("create");
      const config = await get(bgpPath());
      expect(config).toMatchObject({ data: { asn: 64512, max_prefixes: 3, instance: null }, live: { password: "first-bgp-secret" } });
      expect(state.bgp.id).toBe(String(config.data.id));
      expect(outs("bgp")).toMatchObject({ asn: 64512, maxPrefixes: 3, instanceId: null, password: "first-bgp-secret" });
      expect(secretsOf("bgp")).toEqual(secretOnPlugin());
    });

    it("diffs the same declaration as no change and sends no mutating request", async () => {
      await expectSame([["bgp", "BgpConfig", bgp]]);
    });

    it("patches the session in place, the request log masking the password", async () => {
      const id = state.bgp.id;
      bgp = { ...bgp, asn: 64513, password: secretIn("second-bgp-secret"), maxPrefixes: 5, instanceId: env.vm1 };
      const { step, now, mutations: logged } = await upLogged("bgp", "BgpConfig", bgp);
      expect({ step, id: now.id }).toEqual({ step: "update", id });
      expect(lines(logged)).toEqual([`PATCH ${bgpPath()}`]);
      // The request log masks the password; the API holds the new one.
      expect(calls(logged, bgpPath())[0].body).toEqual({ asn: 64513, password: "[masked]", instance_id: env.vm1, max_prefixes: 5 });
      expect(await get(bgpPath())).toMatchObject({
        data: { asn: 64513, max_prefixes: 5, instance: { id: env.vm1 } },
        live: { password: "second-bgp-secret" },
      });
      expect(secretsOf("bgp")).toEqual(secretOnPlugin());
    });

    it("clears the BGP endpoint in place", async () => {
      bgp = { ...bgp, instanceId: null };
      const { mutations: logged } = await upLogged("bgp", "BgpConfig", bgp);
      expect(logged).toEqual([expect.objectContaining({ path: bgpPath(), body: { instance_id: null } })]);
      expect((await get(bgpPath())).data.instance).toBeNull();
      await expectSame([["bgp", "BgpConfig", bgp]]);
    });

    it("a read finds a password changed outside Pulumi; the next up puts the declared one back under the same id", async () => {
      const id = state.bgp.id;
      expect((await api().patch(bgpPath(), { password: "changed-by-hand" })).status).toBe(200);
      await refresh("bgp", "BgpConfig");
      expect(outs("bgp").password).toBe("changed-by-hand");
      // What a read finds of the password is as secret as what was declared.
      expect(secretsOf("bgp")).toEqual(secretOnPlugin());
      const { step, now } = await upLogged("bgp", "BgpConfig", bgp);
      expect({ step, id: now.id }).toEqual({ step: "update", id });
      expect((await get(bgpPath())).live.password).toBe("second-bgp-secret");
    });

    it("a read of a configuration deleted outside Pulumi answers no id", async () => {
      expect((await api().delete(bgpPath())).status).toBe(200);
      expect((await refresh("bgp", "BgpConfig")).id).toBe("");
      expect(state.bgp).toBeUndefined();
    });

    it("recreates it even when the create answer is lost: the PATCH, idempotent, sent again, one configuration", async () => {
      const logged = await createDespiteLostAnswer("PATCH", "/v1/workspaces/*/bgp", "bgp", "BgpConfig", bgp);
      // PATCH is idempotent: the client sends it again.
      expect(calls(logged, bgpPath()).length).toBeGreaterThanOrEqual(1);
      expect(String((await get(bgpPath())).data.id)).toBe(state.bgp.id);
      expect((await inventory()).resources.bgpConfigs).toHaveLength(1);
      await expectSame([["bgp", "BgpConfig", bgp]]);
    });

    it("refuses to take over an existing BGP configuration, naming it for adoptId", async () => {
      // The stack's configuration is replaced by one made by hand.
      expect((await api().delete(bgpPath())).status).toBe(200);
      const made = await api().patch(bgpPath(), { asn: 65000, max_prefixes: 4, password: "hand-made-secret" });
      expect(made.status).toBe(200);
      // Another configuration is not the recorded one: it reads as gone.
      expect((await refresh("bgp", "BgpConfig")).id).toBe("");
      const since = await lastSeq();
      const err = await upFails("bgp", "BgpConfig", bgp);
      expect(err.message).toMatch(
        new RegExp(`already has a BGP configuration \\(id ${made.body.data.id}.*adoptId: "${made.body.data.id}"`, "s"),
      );
      expect(err.kept).toBeUndefined();
      expect(calls(await mutations(since), bgpPath())).toEqual([]);
      expect((await get(bgpPath())).data.asn).toBe(65000);
    });

    it("adopts the existing configuration by adoptId and converges it, creating nothing", async () => {
      const config = String((await get(bgpPath())).data.id);
      bgp = { ...bgp, adoptId: config };
      await adopt("bgp", "BgpConfig", bgp);
      expect(state.bgp.id).toBe(config);
      expect(await get(bgpPath())).toMatchObject({ data: { asn: 64513, max_prefixes: 5 }, live: { password: "second-bgp-secret" } });
      await expectSame([["bgp", "BgpConfig", bgp]]);
    });

    it("deletes everything it made, leaving the inventory empty", async () => {
      await deleteAll([["bgp", "BgpConfig"]]);
      await removeFixtures(["bgpConfigs"]);
    });
  },
  { staff: true },
);
