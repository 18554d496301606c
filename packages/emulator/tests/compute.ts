/**
 * Helpers shared by the part 2 (compute) emulator tests: extra users and workspaces inserted
 * straight into the in-process store (the account areas are tested elsewhere), catalogue
 * lookups, and instance creation that waits for the workflow.
 */
import { hashSecret, ALL_WRITE_GRANTS } from "../src/core/auth";
import { DEFAULT_QUOTA, type Grants, type Role } from "../src/model";
import type { TestApi, TestEmulator } from "../src/testing";
import { setTimeout as sleep } from "node:timers/promises";

let counter = 0;

function store(t: TestEmulator) {
  return t.emu.services.store;
}

/** A new user with a USER-subject API token (given grants); returns the API client and user id. */
export function newUser(t: TestEmulator, grants: Grants = ALL_WRITE_GRANTS): { api: TestApi; userId: string } {
  const s = store(t);
  const n = ++counter;
  const now = new Date().toISOString();
  const user = s.t.users.insert({
    id: s.newId(),
    name: `User ${n}`,
    email: `user${n}-${Date.now()}@example.com`,
    passwordHash: hashSecret("password-123"),
    flags: ["EMAIL_VERIFIED"],
    staff: false,
    locked: false,
    deactivated: false,
    totp: null,
    pendingEmail: null,
    created: now,
  });
  const code = `svc_test_${n}_${Math.random().toString(36).slice(2)}`;
  s.t.tokens.insert({
    id: s.newId(),
    name: `test ${n}`,
    codeHash: hashSecret(code),
    origin: "API",
    subject: "USER",
    subjectId: user.id,
    subjectKind: null,
    workspaceId: null,
    grants: { ...grants },
    userId: user.id,
    createdById: user.id,
    created: now,
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return { api: t.api.as(code), userId: user.id };
}

/** A member of a workspace with a role (and optionally narrower grants). */
export function member(t: TestEmulator, workspaceId: string, role: Role, grants?: Grants): TestApi {
  const { api, userId } = newUser(t, grants);
  store(t).t.memberships.insert({ id: store(t).newId(), workspaceId, userId, role, inviteId: null });
  return api;
}

/** A resource token for one instance (RESOURCE subject) created by the bootstrap user. */
export function resourceToken(t: TestEmulator, instanceId: string, grants: Grants = { INSTANCE: "READ" }): TestApi {
  const s = store(t);
  const code = `svc_res_${++counter}_${Math.random().toString(36).slice(2)}`;
  s.t.tokens.insert({
    id: s.newId(),
    name: "resource",
    codeHash: hashSecret(code),
    origin: "API",
    subject: "RESOURCE",
    subjectId: instanceId,
    subjectKind: "INSTANCE",
    workspaceId: t.workspaceId,
    grants,
    userId: null,
    createdById: t.emu.userId,
    created: new Date().toISOString(),
    expires: null,
    lastIp: null,
    lastUsed: null,
  });
  return t.api.as(code);
}

/** Another user who owns another workspace. */
export function otherWorkspace(t: TestEmulator, opts: { privateCloud?: boolean } = {}): { api: TestApi; workspaceId: string } {
  const { api, userId } = newUser(t);
  const s = store(t);
  const ws = s.t.workspaces.insert({
    id: s.newId(),
    name: `other-${++counter}`,
    ownerId: userId,
    flags: [],
    mfaRequired: false,
    disableSshPassword: false,
    privateCloud: opts.privateCloud ?? false,
    quota: { ...DEFAULT_QUOTA },
    created: new Date().toISOString(),
  });
  s.t.memberships.insert({ id: s.newId(), workspaceId: ws.id, userId, role: "OWNER", inviteId: null });
  return { api, workspaceId: ws.id };
}

export function planId(t: TestEmulator, name: string): bigint {
  const plan = store(t).t.plans.find((p) => p.name === name);
  if (!plan) throw new Error(`no plan ${name}`);
  return BigInt(plan.id);
}

export function imageId(t: TestEmulator, name: string): bigint {
  const image = store(t).t.images.find((i) => i.name === name);
  if (!image) throw new Error(`no image ${name}`);
  return BigInt(image.id);
}

export function nodeId(t: TestEmulator, name: string): bigint {
  const node = store(t).t.nodes.find((n) => n.name === name);
  if (!node) throw new Error(`no node ${name}`);
  return BigInt(node.id);
}

/** Sets fields of a row through the test controls (locked, quota, state...). */
export async function patchRow(t: TestEmulator, table: string, id: string, fields: Record<string, unknown>): Promise<void> {
  const res = await t.control.patch(`/_emulator/tables/${table}/${id}`, fields);
  if (res.status !== 200) throw new Error(`patch ${table}/${id}: ${res.status} ${res.text}`);
}

/** Creates an instance (PLAN lightning-1 in NA_01 from Ubuntu unless overridden) and waits until it settles. */
export async function createInstance(
  t: TestEmulator,
  overrides: Record<string, unknown> = {},
  api: TestApi = t.api,
  workspaceId = t.workspaceId,
) {
  const body = {
    type: "PLAN",
    name: `vm-${++counter}`,
    region: "NA_01",
    plan: planId(t, "lightning-1"),
    image: imageId(t, "Ubuntu 24.04 LTS"),
    ...overrides,
  };
  const res = await api.post(`/v1/workspaces/${workspaceId}/instances`, body);
  if (res.status !== 202) throw new Error(`create instance: ${res.status} ${res.message} ${res.text}`);
  const state = await waitWorkflowAs(api, res.body.workflow.id);
  if (state !== "COMPLETED") throw new Error(`create workflow ended ${state}`);
  const got = await api.get(`/v1/instances/${res.body.resource.id}`);
  return got.body;
}

/** Polls a workflow with a given client until it ends; returns its final state. */
export async function waitWorkflowAs(api: TestApi, workflowId: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/workflows/${workflowId}`);
    if (res.status === 200 && res.body.state !== "QUEUED" && res.body.state !== "RUNNING") return res.body.state;
    if (Date.now() > deadline) throw new Error(`workflow ${workflowId} did not end (last ${res.status} ${res.text})`);
    await sleep(10);
  }
}

/**
 * Makes workflows take `ms` while `fn` runs, so intermediate states (PENDING, DELETING) can be
 * observed without racing the default 30 ms.
 */
export async function withSlowWorkflows<T>(t: TestEmulator, ms: number, fn: () => Promise<T>): Promise<T> {
  const before = (await t.control.get("/_emulator/settings")).body.workflowMs;
  await t.control.post("/_emulator/settings", { workflowMs: ms });
  try {
    return await fn();
  } finally {
    await t.control.post("/_emulator/settings", { workflowMs: before });
  }
}

/** Runs a command and waits for its workflow; returns the final workflow state. */
export async function command(t: TestEmulator, name: string, body: unknown, api: TestApi = t.api): Promise<string> {
  const res = await api.post(`/v1/commands/${name}`, body);
  if (res.status !== 202) throw new Error(`${name}: ${res.status} ${res.message}`);
  return t.waitWorkflow(res.body.id);
}

export async function advanceClock(t: TestEmulator, ms: number): Promise<void> {
  await t.control.post("/_emulator/clock", { advanceMs: ms });
}
