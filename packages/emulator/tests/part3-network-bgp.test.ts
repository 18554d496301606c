/**
 * Part 3 BGP configuration and prefixes against the emulator over real HTTP.
 */
import { fireHook } from "../src/core/hooks";
import { useTestEmulator, type TestEmulator } from "../src/testing";
import { collectAfter, makeInstance, makeUser, makeWorkspace } from "./network";

let t: TestEmulator;
let bgpPath: string;
let prefixesPath: string;

useTestEmulator((started) => {
  t = started;
  bgpPath = `/v1/workspaces/${t.workspaceId}/bgp`;
  prefixesPath = `${bgpPath}/prefixes`;
});

const prefix = (over: Record<string, unknown> = {}) => ({
  prefix: "203.0.113.0/24",
  source: "MANUAL",
  enabled: true,
  community: "DEFAULT",
  ...over,
});

async function configure(body: Record<string, unknown> = { asn: 65000, password: "s3cret-session" }) {
  const res = await t.api.patch(bgpPath, body);
  expect(res.status).toBe(200);
  return res.body;
}

async function addPrefix(over: Record<string, unknown> = {}) {
  const res = await t.api.post(prefixesPath, prefix(over));
  expect(res.status).toBe(201);
  return res.body as { id: bigint; prefix: string };
}

describe("configuration", () => {
  it("answers 404 until a configuration exists", async () => {
    const res = await t.api.get(bgpPath);
    expect(res.status).toBe(404);
    expect(res.message).toContain("BGP configuration");
  });

  it("creates the configuration on the first PATCH and returns it in the fetch shape", async () => {
    const created = await configure({ asn: 65000, password: "s3cret-session", max_prefixes: 5 });
    expect(created).toEqual({
      data: { id: expect.any(String), asn: 65000, instance: null, max_prefixes: 5 },
      live: { password: "s3cret-session" },
    });
    expect((await t.api.get(bgpPath)).body).toEqual(created);
    const updated = await configure({ asn: 4294967295 });
    expect(updated).toEqual({ ...created, data: { ...created.data, asn: 4294967295 } });
  });

  it("fills in defaults for a configuration created without asn or max_prefixes", async () => {
    expect(await configure({ password: "only-a-password" })).toMatchObject({
      data: { asn: null, instance: null, max_prefixes: 100 },
      live: { password: "only-a-password" },
    });
    await t.api.delete(bgpPath);
    expect(await configure({})).toMatchObject({ data: { asn: null }, live: { password: null } });
  });

  it("stores the session password encrypted, never in plaintext", async () => {
    const { data } = await configure({ asn: 65001, password: "plain-text-secret" });
    const row = await t.control.get(`/_emulator/tables/bgpConfigs/${data.id}`);
    expect(row.status).toBe(200);
    expect(row.text).not.toContain("plain-text-secret");
    expect(row.body.passwordEncrypted).toMatch(/^enc:v1:/);
    expect((await t.api.get(bgpPath)).body.live.password).toBe("plain-text-secret");
  });

  it("sets the endpoint instance by a raw integer id, and clears it with null", async () => {
    const vm = makeInstance(t, { name: "bgp-router" });
    const res = await t.api.patch(bgpPath, undefined, { rawBody: `{"instance_id":${vm.id}}` });
    expect(res.status).toBe(200);
    expect(res.body.data.instance).toEqual({ id: vm.id, name: "bgp-router" });
    expect(res.text).toContain(`"id":"${vm.id}"`);
    expect((await t.api.patch(bgpPath, { instance_id: null })).body.data.instance).toBeNull();
  });

  it("refuses an endpoint outside the workspace: 400 when visible, 404 when unknown", async () => {
    const { userId, api: both } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER" });
    const foreign = makeInstance(t, { workspaceId: makeWorkspace(t, userId) });
    const res = await both.patch(bgpPath, undefined, { rawBody: `{"instance_id":${foreign.id}}` });
    expect(res.status).toBe(400);
    expect(res.message).toContain("instance_id");
    expect((await t.api.patch(bgpPath, undefined, { rawBody: `{"instance_id":${foreign.id}}` })).status).toBe(404);
    expect((await t.api.patch(bgpPath, undefined, { rawBody: '{"instance_id":9007199254740993}' })).status).toBe(404);
    expect((await t.api.get(bgpPath)).status).toBe(404);
  });

  it.each([
    ["asn 0", { asn: 0 }, "asn"],
    ["asn 4294967296", { asn: 4294967296 }, "asn"],
    ["asn as a string", { asn: "65000" }, "asn"],
    ["a password that is not a string", { password: 12345 }, "password"],
    ["a null password", { password: null }, "password"],
    ["instance_id as a string", { instance_id: "12" }, "instance_id"],
    ["max_prefixes 0", { max_prefixes: 0 }, "max_prefixes"],
    ["fractional max_prefixes", { max_prefixes: 1.5 }, "max_prefixes"],
  ])("refuses %s with 400", async (_label, body, field) => {
    const res = await t.api.patch(bgpPath, body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("deletes the configuration and all its prefixes (200, no body)", async () => {
    await configure();
    await addPrefix();
    await addPrefix({ prefix: "2001:db8::/48" });
    const res = await t.api.delete(bgpPath);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect((await t.api.get(bgpPath)).status).toBe(404);
    expect((await t.api.delete(bgpPath)).status).toBe(404);
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.bgpConfigs).toEqual([]);
    expect(inv.body.resources.bgpPrefixes).toEqual([]);
  });

  it("clears the endpoint when its instance is deleted", async () => {
    const vm = makeInstance(t);
    await configure({ instance_id: BigInt(vm.id) });
    t.emu.services.store.t.instances.delete(vm.id);
    fireHook(t.emu.services, "instance.deleted", { instanceId: vm.id, workspaceId: t.workspaceId });
    expect((await t.api.get(bgpPath)).body.data.instance).toBeNull();
  });
});

describe("prefixes", () => {
  it("needs a configuration first (404)", async () => {
    expect((await t.api.post(prefixesPath, prefix())).status).toBe(404);
    expect((await t.api.get(prefixesPath)).body.items).toEqual([]);
  });

  it("creates a prefix entry whose id is a bare JSON integer above 2^53", async () => {
    await configure();
    const res = await t.api.post(prefixesPath, prefix({ prefix: "203.0.113.77/24", community: "PROTECTED", enabled: false }));
    expect(res.status).toBe(201);
    expect(typeof res.body.id).toBe("bigint");
    expect(res.body.id).toBeGreaterThan(2n ** 53n);
    expect(res.text).toMatch(new RegExp(`"id":${res.body.id}[,}]`));
    expect(res.body).toEqual({ id: res.body.id, prefix: "203.0.113.0/24", source: "MANUAL", enabled: false, community: "PROTECTED" });
    const listed = await t.api.get(prefixesPath, { id: [String(res.body.id)] });
    expect(listed.body.items).toEqual([res.body]);
  });

  it.each([
    ["no prefix", { prefix: undefined }, "prefix"],
    ["a prefix without a length", { prefix: "203.0.113.0" }, "prefix"],
    ["a prefix that is not a CIDR", { prefix: "my-network" }, "prefix"],
    ["no source", { source: undefined }, "source"],
    ["an unknown source", { source: "AUTO" }, "source"],
    ["no enabled", { enabled: undefined }, "enabled"],
    ["enabled as a string", { enabled: "yes" }, "enabled"],
    ["no community", { community: undefined }, "community"],
    ["an unknown community", { community: "NO_EXPORT" }, "community"],
  ])("refuses %s with 400", async (_label, over, field) => {
    await configure();
    const res = await t.api.post(prefixesPath, prefix(over));
    expect(res.status).toBe(400);
    expect(res.message).toContain(field);
  });

  it("respects max_prefixes", async () => {
    await configure({ max_prefixes: 2 });
    await addPrefix({ prefix: "203.0.113.0/24" });
    await addPrefix({ prefix: "198.51.100.0/24" });
    const third = await t.api.post(prefixesPath, prefix({ prefix: "192.0.2.0/24" }));
    expect(third.status).toBe(400);
    expect(third.message).toContain("max_prefixes");
    await configure({ max_prefixes: 3 });
    await addPrefix({ prefix: "192.0.2.0/24" });
  });

  it("lists with id, partial prefix, source and enabled filters, by page and by keyset", async () => {
    await configure();
    const a = await addPrefix({ prefix: "203.0.113.0/24" });
    const b = await addPrefix({ prefix: "203.0.113.128/25", enabled: false });
    const c = await addPrefix({ prefix: "2001:db8:1::/48" });
    const d = await addPrefix({ prefix: "198.51.100.0/24", enabled: false });
    const ids = async (query: Record<string, string | string[]>) =>
      (await t.api.get(prefixesPath, query)).body.items.map((p: { id: bigint }) => p.id);
    const byId = (xs: bigint[]) => [...xs].sort((x, y) => (x < y ? -1 : 1));
    expect(await ids({})).toEqual(byId([a.id, b.id, c.id, d.id]));
    expect(await ids({ prefix: "203.0.113" })).toEqual(byId([a.id, b.id]));
    expect(await ids({ prefix: "2001:db8" })).toEqual([c.id]);
    expect(await ids({ enabled: "false" })).toEqual(byId([b.id, d.id]));
    expect(await ids({ source: "MANUAL", id: [String(a.id), String(d.id)] })).toEqual(byId([a.id, d.id]));
    expect((await t.api.get(prefixesPath, { source: "BGP" })).status).toBe(400);
    expect((await t.api.get(prefixesPath, { enabled: "sometimes" })).status).toBe(400);
    const walked = await collectAfter<{ id: bigint }>(t.api, prefixesPath, { limit: 3 });
    expect(walked.map((p) => p.id)).toEqual(byId([a.id, b.id, c.id, d.id]));
    const p2 = await t.api.get(prefixesPath, { limit: 2, page: 2 });
    expect(p2.body.items.map((p: { id: bigint }) => p.id)).toEqual(byId([a.id, b.id, c.id, d.id]).slice(2));
    const back = await t.api.get(prefixesPath, { limit: 2, before: p2.body.before });
    expect(back.body.items.map((p: { id: bigint }) => p.id)).toEqual(byId([a.id, b.id, c.id, d.id]).slice(0, 2));
  });

  it("replaces an entry with PUT (all four fields required)", async () => {
    await configure();
    const entry = await addPrefix();
    const res = await t.api.put(
      `${prefixesPath}/${entry.id}`,
      prefix({ prefix: "2001:db8:abcd::/48", enabled: false, community: "PROTECTED" }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: entry.id, prefix: "2001:db8:abcd::/48", source: "MANUAL", enabled: false, community: "PROTECTED" });
    const partial = await t.api.put(`${prefixesPath}/${entry.id}`, { prefix: "203.0.113.0/24", enabled: true });
    expect(partial.status).toBe(400);
    expect((await t.api.put(`${prefixesPath}/${entry.id + 1n}`, prefix())).status).toBe(404);
  });

  it("withdraws asynchronously: DELETE answers 200 with no body and the entry disappears after the workflow", async () => {
    await configure();
    const entry = await addPrefix();
    await t.control.post("/_emulator/faults", { kind: "stuck", method: "DELETE", path: "/v1/workspaces/*/bgp/prefixes/*", times: 1 });
    const res = await t.api.delete(`${prefixesPath}/${entry.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    // Still announced (listed) while the withdrawal runs; it cannot be replaced meanwhile.
    expect((await t.api.get(prefixesPath)).body.items.map((p: { id: bigint }) => p.id)).toEqual([entry.id]);
    const inv = await t.control.get("/_emulator/inventory", { workspace: t.workspaceId });
    expect(inv.body.resources.bgpPrefixes).toEqual([
      { id: String(entry.id), name: "203.0.113.0/24", workspaceId: t.workspaceId, state: "DELETING" },
    ]);
    expect((await t.api.put(`${prefixesPath}/${entry.id}`, prefix())).status).toBe(409);
    expect((await t.api.delete(`${prefixesPath}/${entry.id}`)).status).toBe(200);

    const other = await addPrefix({ prefix: "198.51.100.0/24" });
    await t.api.delete(`${prefixesPath}/${other.id}`);
    await t.waitFor<{ items: Array<{ id: bigint }> }>(prefixesPath, (b) => !b.items.some((p) => p.id === other.id));
    expect((await t.api.delete(`${prefixesPath}/${other.id}`)).status).toBe(404);
  });

  it("keeps the prefix when the withdrawal fails", async () => {
    await configure();
    const entry = await addPrefix();
    await t.control.post("/_emulator/faults", { kind: "workflow", outcome: "FAILED", method: "DELETE", path: "/v1/**" });
    await t.api.delete(`${prefixesPath}/${entry.id}`);
    await t.waitFor(
      "/_emulator/inventory",
      (b: { resources: { bgpPrefixes: Array<{ state: string }> } }) => b.resources.bgpPrefixes[0]?.state === "AVAILABLE",
    );
    expect((await t.api.put(`${prefixesPath}/${entry.id}`, prefix({ enabled: false }))).status).toBe(200);
  });
});

describe("access", () => {
  it("answers 403 without a token", async () => {
    expect((await t.anon.get(bgpPath)).status).toBe(403);
    expect((await t.anon.patch(bgpPath, { asn: 1 })).status).toBe(403);
  });

  it("lets a VIEWER read the configuration but needs ADMINISTRATOR for mutations and the prefix list", async () => {
    await configure();
    const entry = await addPrefix();
    const { api: viewer } = makeUser(t, { workspaceId: t.workspaceId, role: "VIEWER" });
    const { api: editor } = makeUser(t, { workspaceId: t.workspaceId, role: "EDITOR" });
    const { api: admin } = makeUser(t, { workspaceId: t.workspaceId, role: "ADMINISTRATOR" });
    expect((await viewer.get(bgpPath)).status).toBe(200);
    for (const res of [
      await editor.patch(bgpPath, { asn: 64512 }),
      await editor.delete(bgpPath),
      await editor.get(prefixesPath),
      await editor.post(prefixesPath, prefix()),
      await editor.put(`${prefixesPath}/${entry.id}`, prefix()),
      await editor.delete(`${prefixesPath}/${entry.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.message).toContain("ADMINISTRATOR");
    }
    expect((await admin.patch(bgpPath, { asn: 64512 })).status).toBe(200);
    expect((await admin.get(prefixesPath)).status).toBe(200);
  });

  it("needs the WORKSPACE grant", async () => {
    await configure();
    const { api: noGrant } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER", grants: { INSTANCE: "WRITE" } });
    expect((await noGrant.get(bgpPath)).status).toBe(403);
    const { api: readOnly } = makeUser(t, { workspaceId: t.workspaceId, role: "OWNER", grants: { WORKSPACE: "READ" } });
    expect((await readOnly.get(bgpPath)).status).toBe(200);
    expect((await readOnly.patch(bgpPath, { asn: 1 })).status).toBe(403);
  });

  it("answers 404 for another workspace", async () => {
    const { userId, api: stranger } = makeUser(t);
    const ws = makeWorkspace(t, userId);
    expect((await stranger.patch(`/v1/workspaces/${ws}/bgp`, { asn: 65100 })).status).toBe(200);
    const entry = (await stranger.post(`/v1/workspaces/${ws}/bgp/prefixes`, prefix())).body.id as bigint;
    expect((await t.api.get(`/v1/workspaces/${ws}/bgp`)).status).toBe(404);
    expect((await t.api.patch(`/v1/workspaces/${ws}/bgp`, { asn: 1 })).status).toBe(404);
    expect((await t.api.get(`/v1/workspaces/${ws}/bgp/prefixes`)).status).toBe(404);
    // Through one's own workspace the foreign entry does not exist.
    await configure();
    expect((await t.api.put(`${prefixesPath}/${entry}`, prefix())).status).toBe(404);
    expect((await t.api.delete(`${prefixesPath}/${entry}`)).status).toBe(404);
  });
});
