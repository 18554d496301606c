/**
 * One API workspace per environment, found by name or made (spec part 1, Workspaces).
 *
 * Why a workspace each: the API allows one k3s cluster per workspace (spec part 3, Managed
 * Kubernetes), and the quickstart makes one; names the quickstart gives (the VPC, the instances,
 * the service) would also meet in a shared workspace. Why found by name: the API has no delete for
 * workspaces, so destroying an environment leaves its workspace behind, empty (nothing in it is
 * billed); the next environment of the same branch takes it back instead of adding another.
 *
 * The driver's only direct API calls. Rate limits are shared with every stack on the token, so a
 * 429 is waited out (Retry-After) rather than failing the environment.
 */
export interface ApiTarget {
  baseUrl: string;
  token: string;
}

export interface Workspace {
  id: string;
  name: string;
  /** Whether the driver made it just now (otherwise an earlier environment of this branch left it). */
  created: boolean;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const GIVE_UP_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call<T>(api: ApiTarget, method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const url = new URL(path, api.baseUrl);
  const giveUpAt = Date.now() + GIVE_UP_MS;
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${api.token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (err) {
      // A POST whose connection failed may still have been applied: only a GET is sent again.
      if (method === "GET" && Date.now() < giveUpAt) {
        await sleep(Math.min(5000, 250 * 2 ** attempt));
        continue;
      }
      throw new Error(`${method} ${url}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
    }
    // 429 means the API did nothing, so even a POST is safe to send again.
    const retryable = res.status === 429 || (method === "GET" && RETRY_STATUSES.has(res.status));
    if (retryable && Date.now() < giveUpAt) {
      const retryAfter = Number(res.headers.get("retry-after"));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : Math.min(5000, 250 * 2 ** attempt));
      continue;
    }
    if (!res.ok) {
      const reason = res.headers.get("x-message") ?? (await res.text()).slice(0, 200);
      throw new Error(`${method} ${url.pathname}: ${res.status}${reason ? ` ${reason}` : ""}`);
    }
    return (await res.json()) as T;
  }
}

interface Page<T> {
  items: T[];
  hasNext: boolean;
  after: string | null;
}

/** The workspace named exactly `name` (the API's name filter matches parts of names too), or undefined. */
async function findByName(api: ApiTarget, name: string): Promise<{ id: string; name: string } | undefined> {
  const found: Array<{ id: string; name: string }> = [];
  let after: string | null = null;
  do {
    const query = new URLSearchParams({ name, limit: "100", ...(after ? { after } : {}) });
    const page: Page<{ id: string | number; name: string }> = await call(api, "GET", `/v1/workspaces?${query}`);
    found.push(...page.items.filter((w) => w.name === name).map((w) => ({ id: String(w.id), name: w.name })));
    after = page.hasNext ? page.after : null;
  } while (after);
  if (found.length > 1)
    throw new Error(`${found.length} workspaces are named ${name} (ids ${found.map((w) => w.id).join(", ")}): rename all but one`);
  return found[0];
}

/** The environment's workspace: the one already named so, or a new one (the token must be a user's: a person owns it). */
export async function ensureWorkspace(api: ApiTarget, name: string): Promise<Workspace> {
  const existing = await findByName(api, name);
  if (existing) return { ...existing, created: false };
  const made = await call<{ id: string | number; name: string }>(api, "POST", "/v1/workspaces", { name });
  return { id: String(made.id), name: made.name, created: true };
}

/** The workspace of an environment to destroy or check, which must exist. */
export async function existingWorkspace(api: ApiTarget, name: string): Promise<Workspace> {
  const existing = await findByName(api, name);
  if (!existing) throw new Error(`no workspace named ${name}: this environment was never brought up with this token`);
  return { ...existing, created: false };
}

/** Whether the API answers this token at all (one cheap list), before any environment starts. */
export async function checkApi(api: ApiTarget): Promise<void> {
  await call(api, "GET", "/v1/workspaces?limit=1");
}
