/**
 * RegistryCredential on both faces, in process (tests/support/inProcess.ts): a registry that is no
 * host refused at check, naming the property, before any API request, and new credentials the
 * registry refuses surfaced, the old ones kept, converging on the next up. Its create (the host as
 * the API writes it, the password kept secret), in-place patch, replacement, drift, deletion outside
 * Pulumi, adoption (never without adoptId for a host the workspace has) and delete are
 * workspace.test.ts's cases, which make it beside the other access kinds
 * (tests/inprocess/support/access.ts: what they share). The other refusals at preview are
 * tests/unit/resources/registryCredential.test.ts.
 */
import { describeEachFace, opened } from "../support/inProcess";
import { accessHarness } from "./support/access";

describeEachFace("RegistryCredential", (ctx) => {
  const { env, state, face, api, lastSeq, requests, lines, upLogged, upFails, secretOn, secretIn, reg, setup } = accessHarness(ctx);

  beforeAll(async () => {
    await setup();
    // The credentials as workspace.test.ts's in-place patch leaves them: the registry's ci-bot account.
    Object.assign(reg, { username: "ci-bot", password: secretIn("n3w-token") });
    await upLogged("reg", "RegistryCredential", reg);
  });

  it.each([["RegistryCredential", () => ({ ...reg, registry: "https://" }), "registry", /must be a registry host/]])(
    "check refuses a bad %s, naming the property and the rule, before any API request",
    async (kind, bad, property, reason) => {
      const since = await lastSeq();
      const { failures } = await face().check(kind, bad());
      expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
      expect(await requests(since)).toEqual([]);
    },
  );

  it("surfaces the registry's refusal of new credentials, keeping the old ones, and converges on the next up", async () => {
    const regId = state.reg.id;
    reg.password = secretIn("wrong-password");
    const err = await upFails("reg", "RegistryCredential", reg);
    expect(err.message).toMatch(
      /RegistryCredential registry\.example\.com: the API refused the credentials for registry\.example\.com: Registry registry\.example\.com rejected the credentials \(401 Unauthorized\)/,
    );
    // The update kept the credential under its id, the refused password among what is recorded,
    // and as secret as the declared one; the API holds the old pair.
    expect(err.kept?.id).toBe(regId);
    expect(opened(err.kept?.properties).value).toMatchObject({ username: "ci-bot", password: "wrong-password" });
    expect(opened(err.kept?.properties).secrets).toEqual(secretOn("password"));
    expect((await api().post(`/v1/workspaces/${env.wid}/registries/${regId}/test`)).status).toBe(204);
    // So the next up sends the declared pair again, and then nothing is left to do.
    reg.password = secretIn("n3w-token");
    const { step, mutations: sent } = await upLogged("reg", "RegistryCredential", reg);
    expect({ step, sent: lines(sent) }).toEqual({ step: "update", sent: [`PATCH /v1/workspaces/${env.wid}/registries/${regId}`] });
    expect((await api().post(`/v1/workspaces/${env.wid}/registries/${regId}/test`)).status).toBe(204);
    expect((await upLogged("reg", "RegistryCredential", reg)).step).toBe("same");
  });
});
