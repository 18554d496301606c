/**
 * What `svc-recover` reads from and writes to the stack, all through the pulumi CLI in the
 * project directory (the same configuration and backend as `pulumi up`): the exported state, the
 * configuration, when the interrupted update began, and the edit that records a decision.
 *
 * Why an edit and not `pulumi refresh --import-pending-creates`: in the pinned CLI (3.163) that
 * flag turns the pending create into an "importing" operation which the refresh then drops, so the
 * object is forgotten, not recorded (tried: the cluster ended an orphan). Moving the operation's
 * resource into the state with its id, then refreshing, is what it was meant to do.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
  created?: string;
  [more: string]: unknown;
}

export interface PendingOperation {
  type: "creating" | "updating" | "deleting" | "importing" | string;
  resource: StateResource;
}

export interface Deployment {
  manifest?: { time?: string };
  resources?: StateResource[];
  pending_operations?: PendingOperation[];
  [more: string]: unknown;
}

export interface Exported {
  version: number;
  deployment: Deployment;
}

/** A pulumi command that failed: what it printed, for the person to read. */
export class PulumiError extends Error {}

export class Stack {
  constructor(
    readonly name: string | undefined,
    readonly cwd: string = process.cwd(),
  ) {}

  /** Runs `pulumi <args>` on this stack; resolves with stdout, rejects with what it printed. */
  run(args: string[], opts: { quiet?: boolean } = {}): Promise<string> {
    const argv = [...args, ...(this.name ? ["--stack", this.name] : []), "--non-interactive"];
    return new Promise((resolve, reject) => {
      const child = execFile("pulumi", argv, { cwd: this.cwd, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new PulumiError(`pulumi ${args.join(" ")} failed: ${(stderr || stdout || err.message).trim()}`));
        else resolve(stdout);
      });
      if (!opts.quiet) child.stderr?.pipe(process.stderr);
    });
  }

  /** The state; `showSecrets` decrypts (for reading inputs), otherwise secrets stay ciphertext (for an edit). */
  async export(showSecrets = false): Promise<Exported> {
    return JSON.parse(await this.run(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])], { quiet: true }));
  }

  async import(state: Exported): Promise<void> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-recover-"));
    const file = path.join(dir, "state.json");
    try {
      fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
      await this.run(["stack", "import", "--file", file], { quiet: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The stack's configuration, secrets decrypted: `svc:token` -> value. */
  async config(): Promise<Record<string, string>> {
    const raw = JSON.parse(await this.run(["config", "--json", "--show-secrets"], { quiet: true })) as Record<string, { value?: unknown }>;
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v.value === "string" ? v.value : JSON.stringify(v.value)]));
  }

  /** Start times (ms) of the updates the stack's history records, newest first. */
  async historyStarts(): Promise<number[]> {
    try {
      const history = JSON.parse((await this.run(["stack", "history", "--json"], { quiet: true })) || "[]") as Array<{
        startTime?: string;
      }>;
      return history.map((h) => Date.parse(h.startTime ?? "")).filter(Number.isFinite);
    } catch {
      return [];
    }
  }

  /** The backend's URL (`file:///...`, `https://api.pulumi.com`). */
  async backendUrl(): Promise<string | undefined> {
    try {
      return (JSON.parse(await this.run(["whoami", "--json"], { quiet: true })) as { url?: string }).url;
    } catch {
      return undefined;
    }
  }

  /** Ends the interrupted update's hold on the stack (`pulumi cancel`). */
  async cancel(): Promise<void> {
    await this.run(["cancel", "--yes"], { quiet: true });
  }

  /** Reads every resource from the API and records it; clears pending updates and deletes (pulumi's own rule). */
  async refresh(): Promise<void> {
    await this.run(["refresh", "--yes", "--skip-preview"]);
  }
}

/** A lock a file backend still holds: the update that took it, when it began, and whether its process is known gone. */
export interface HeldLock {
  startedAt: number;
  pid: number;
  hostname: string;
  /** The process ran on this machine and no longer exists. */
  provablyGone: boolean;
}

/**
 * A file ("diy") backend's folder of one kind (`locks`, `stacks`) for a project, in the project
 * layout (`.pulumi/meta.yaml` version 1: `<kind>/organization/<project>/...` for locks,
 * `stacks/<project>/...`), which every CLI makes for a new backend since 3.61; the legacy layout
 * (no meta.yaml: `<kind>/<stack>...`) is refused since 3.257 (pulumi/pulumi#24216: "Switch diy
 * deprecation warning to an error"). Other backends: undefined.
 */
/** A folder under a file ("diy") backend's `.pulumi` (stacks, locks...); other backends: undefined. */
export function diyDir(backendUrl: string | undefined, ...parts: string[]): string | undefined {
  if (!backendUrl?.startsWith("file://")) return undefined;
  return path.join(fileURLToPath(backendUrl.replace(/^file:\/\/~/, `file://${os.homedir()}`)), ".pulumi", ...parts);
}

/**
 * The lock of a file ("diy") backend, which a killed update leaves behind: its timestamp is when
 * that update began (the best evidence of it there is; `pulumi cancel` deletes it).
 * `<backend>/.pulumi/locks/organization/<project>/<stack>/<uuid>.json`. Other backends: undefined.
 */
export function heldLock(backendUrl: string | undefined, project: string, stack: string): HeldLock | undefined {
  const dir = diyDir(backendUrl, "locks", "organization", project, stack);
  for (const f of filesIn(dir, ".json")) {
    try {
      const lock = JSON.parse(fs.readFileSync(path.join(dir!, f), "utf8")) as { pid: number; hostname: string; timestamp: string };
      return {
        startedAt: Date.parse(lock.timestamp),
        pid: lock.pid,
        hostname: lock.hostname,
        provablyGone: lock.hostname === os.hostname() && !alive(lock.pid),
      };
    } catch {
      // Not a lock we can read.
    }
  }
  return undefined;
}

/** The names in a folder ending in `suffix`; none when there is no such folder. */
function filesIn(dir: string | undefined, suffix: string): string[] {
  try {
    return dir ? fs.readdirSync(dir).filter((f) => f.endsWith(suffix)) : [];
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A file ("diy") backend stores each stack as `<stack>.json` beside a metadata sidecar
 * `<stack>.json.attrs` (gocloud's fileblob). The JSON is replaced atomically (a temporary file,
 * then a rename), but the sidecar is written in place just before, so a kill in that instant
 * leaves it empty and every command on the stack, `pulumi stack --show-name` included, fails with
 * `failed to load checkpoint: EOF` (seen when CI killed `pulumi up`; reproduced by emptying the
 * file). The sidecar holds only the checksum and content type, and fileblob reads a blob without
 * one, so removing a sidecar that is not JSON loses nothing. Looks at every stack of the project
 * (the selected one cannot be named while its file is unreadable); returns the sidecars removed.
 */
export function removeTornSidecars(backendUrl: string | undefined, project: string): string[] {
  const dir = diyDir(backendUrl, "stacks", project);
  const removed: string[] = [];
  for (const file of filesIn(dir, ".json.attrs").map((f) => path.join(dir!, f))) {
    try {
      JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      fs.rmSync(file, { force: true });
      removed.push(file);
    }
  }
  return removed;
}
