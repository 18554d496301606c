/**
 * SshKey on both faces, in process (tests/support/inProcess.ts): a public key that is not base64
 * refused at check, naming the property, before any API request, and the workspace's SSH key
 * quota refused at create with nothing kept. Its create, replacement on a rename (deleted first),
 * drift, deletion outside Pulumi, adoption and delete are workspace.test.ts's cases, which make it
 * beside the other access kinds (tests/inprocess/support/access.ts: what they share). The other
 * refusals at preview are tests/unit/resources/sshKey.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { KEY_4, accessHarness } from "./support/access";

describeEachFace("SshKey", (ctx) => {
  const { env, face, get, lastSeq, requests, upFails, key, setup, upLogged } = accessHarness(ctx);

  beforeAll(async () => {
    await setup();
    // One key, so that a quota of one is reached.
    await upLogged("key", "SshKey", key);
  });

  it.each([["SshKey", () => ({ ...key, publicKey: "ssh-ed25519 not-base64!" }), "publicKey", /must be base64/]])(
    "check refuses a bad %s, naming the property and the rule, before any API request",
    async (kind, bad, property, reason) => {
      const since = await lastSeq();
      const { failures } = await face().check(kind, bad());
      expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
      expect(await requests(since)).toEqual([]);
    },
  );

  it("surfaces the SSH key quota error, keeping nothing", async () => {
    const quota = await get(`/v1/workspaces/${env.wid}/quota`);
    await ctx().emu.control.patch(`/_emulator/tables/workspaces/${env.wid}`, { quota: { ...quota, max_ssh_keys: 1 } });
    const err = await upFails("key-over", "SshKey", { name: "over-quota", publicKey: KEY_4 });
    expect(err.message).toMatch(
      /SshKey "over-quota": the workspace's SSH key quota is reached: SSH key quota reached: the workspace allows 1 keys \(max_ssh_keys\)/,
    );
    expect(err.kept).toBeUndefined();
    await ctx().emu.control.patch(`/_emulator/tables/workspaces/${env.wid}`, { quota });
  });
});
