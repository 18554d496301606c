/**
 * K3sSecret on both faces, in process (tests/support/inProcess.ts), on the cluster of
 * tests/inprocess/support/k3s.ts, listed by a service: its data replaced in place (the values
 * secret), its name replaced with the service's reference updated in between, keys changed outside
 * Pulumi written back, adoption, a secret and its service deleted outside Pulumi read as gone, and
 * the API's refusal to delete a secret a service still lists. Its create and its no-change diff are
 * k3sCluster.test.ts's. The refusals at preview are tests/unit/resources/k3sSecret.test.ts.
 */
import { describeEachFace } from "../support/inProcess";
import { PASSWORD_2, k3sHarness } from "./support/k3s";

describeEachFace("K3sSecret, listed by a service", (ctx) => {
  const {
    env,
    state,
    api,
    writes,
    upLogged,
    refresh,
    outsOf,
    secretsOn,
    servicePath,
    secretPath,
    secretsInApi,
    replaceAround,
    expectRunning,
    d,
    setup,
    stack,
  } = k3sHarness(ctx);

  beforeAll(async () => {
    await setup();
    // The service is web-v2 here, the name the API names in its refusal to delete the secret it lists.
    await stack("web-v2");
  });

  it("replaces the secret's data in place: same id, one PUT, the keys follow, the values secret", async () => {
    const id = state.creds.id;
    d.creds = { ...d.creds, data: { DB_PASSWORD: PASSWORD_2, DB_USER: "app" } };
    const { step, now, mutations: sent } = await upLogged("creds", "K3sSecret", d.creds);
    expect({ step, id: now.id }).toEqual({ step: "update", id });
    expect(writes(sent)).toEqual([`PUT ${secretPath(id)}`]);
    const { outs, secrets } = outsOf("creds");
    expect(outs.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect(secrets).toEqual(secretsOn(["data"]));
    expect((await secretsInApi()).find((s) => s.id === id)?.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
  });

  describe("replaces on each replace field (new id, the old one gone from the API)", () => {
    it("secret name: a new secret, then the service's reference follows, then the old secret goes", async () => {
      const serviceId = state.web.id;
      d.creds = { ...d.creds, name: "app-creds-v2" };
      const { diff, before, after } = await replaceAround("creds", "K3sSecret", d.creds, async () => {
        d.web = { ...d.web, secretRefs: [outsOf("creds").outs.name] };
        expect((await upLogged("web", "K3sService", d.web)).step).toBe("update");
      });
      expect({ replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace }).toEqual({
        replaces: ["name"],
        deleteBeforeReplace: false,
      });
      expect(after).not.toBe(before);
      const secrets = await secretsInApi();
      expect(secrets.map((s) => s.id)).not.toContain(before);
      expect(secrets.find((s) => s.id === after)).toMatchObject({ name: "app-creds-v2", keys: ["DB_PASSWORD", "DB_USER"] });
      expect(state.web.id).toBe(serviceId);
      expect((await api().get(servicePath(serviceId))).body.service.secret_refs).toEqual(["app-creds-v2"]);
    });
  });

  it("a read notices secret keys changed outside Pulumi; the next up writes the declared data again, then sees no change", async () => {
    const id = state.creds.id;
    expect((await api().put(secretPath(id), { data: { OTHER: "x" } })).status).toBe(200);
    await refresh("creds", "K3sSecret");
    // The values cannot be read back: the recorded data no longer matches the keys, so it reads as null.
    expect(outsOf("creds").outs).toMatchObject({ keys: ["OTHER"], data: null });
    const { step, mutations: sent } = await upLogged("creds", "K3sSecret", d.creds);
    expect(step).toBe("update");
    expect(writes(sent)).toEqual([`PUT ${secretPath(id)}`]);
    expect((await secretsInApi()).find((s) => s.id === id)?.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect(outsOf("creds").outs.keys).toEqual(["DB_PASSWORD", "DB_USER"]);
    expect((await upLogged("creds", "K3sSecret", d.creds)).step).toBe("same");
  });

  it("adopts an existing secret by adoptId and writes the declared data with one PUT, no POST (values cannot be compared)", async () => {
    const existing = await api().post(`/v1/workspaces/${env.wid}/k3s/secrets`, { name: "legacy-creds", data: { TOKEN: "old-value" } });
    expect(existing.status).toBe(201);
    const adopted = { name: "legacy-creds", data: { TOKEN: "new-value" }, adoptId: String(existing.body.id) };
    const { step, now, mutations: sent } = await upLogged("legacy", "K3sSecret", adopted);
    expect({ step, id: now.id }).toEqual({ step: "create", id: String(existing.body.id) });
    // Same key names, yet the values are unknown: adoption converges them with one PUT.
    expect(writes(sent)).toEqual([`PUT ${secretPath(now.id)}`]);
    const { outs, secrets } = outsOf("legacy");
    expect(outs.keys).toEqual(["TOKEN"]);
    expect(secrets).toEqual(secretsOn(["data"]));
    expect((await upLogged("legacy", "K3sSecret", adopted)).step).toBe("same");
  });

  it("reads a service and a secret deleted outside Pulumi as gone (no id); the next up creates them", async () => {
    const serviceId = state.web.id;
    const legacyId = state.legacy.id;
    const del = await api().delete(servicePath(serviceId));
    expect(del.status).toBe(202);
    expect(await ctx().emu.waitWorkflow(del.body.id)).toBe("COMPLETED");
    expect((await api().delete(secretPath(legacyId))).status).toBe(204);
    expect((await refresh("web", "K3sService")).id).toBe("");
    expect((await refresh("legacy", "K3sSecret")).id).toBe("");
    // The adopted secret is gone: declared anew without adoptId (it would point at nothing).
    expect((await upLogged("legacy", "K3sSecret", { name: "legacy-creds", data: { TOKEN: "new-value" } })).step).toBe("create");
    expect((await upLogged("web", "K3sService", d.web)).step).toBe("create");
    expect(state.web.id).not.toBe(serviceId);
    expect(state.legacy.id).not.toBe(legacyId);
    expect((await secretsInApi()).find((s) => s.name === "legacy-creds")?.keys).toEqual(["TOKEN"]);
    await expectRunning("web", 2);
  });

  it("refuses to delete a secret a service still lists: the API's 409 reason, with what to do; nothing is lost", async () => {
    const secretId = state.creds.id;
    await expect(ctx().face.delete("K3sSecret", secretId, state.creds.outs)).rejects.toThrow(
      /K3sSecret "app-creds-v2": the API refuses to delete secret \d+ \(409: The secret is referenced by service web-v2.*Service web-v2 still lists "app-creds-v2" in secret_refs: remove the reference first/s,
    );
    expect((await secretsInApi()).map((s) => s.id)).toContain(secretId);
    // Declaring it again is no change.
    const { step, mutations: sent } = await upLogged("creds", "K3sSecret", d.creds);
    expect({ step, sent }).toEqual({ step: "same", sent: [] });
  });
});
