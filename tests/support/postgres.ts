/**
 * A real PostgreSQL server on a free loopback port (scripts/ensure-postgres.sh obtains and caches
 * it), for the pulumi CLI's postgres:// state backend: a fresh cluster in a temporary directory,
 * password authentication (SCRAM), one database for the state. One per test file: started in
 * beforeAll, stopped in afterAll, its data removed with it.
 *
 * PostgreSQL refuses to run as root. When the tests do (CI runs as root), the server runs in a
 * user namespace where its user is not root (`unshare --user --map-user=65534`): to the kernel it
 * is still this user, so it reads the cached binaries and owns its data directory.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "pg";
import { freePort } from "./objectStore";

export interface Postgres {
  host: string;
  port: number;
  user: string;
  /** PGPASSWORD for the CLI: the password stays out of the backend URL (and so out of every message naming it). */
  env: Record<string, string>;
  /** The backend URL of a database for `pulumi login`. */
  url(database: string, at?: string): string;
  makeDatabase(name: string): Promise<void>;
  /** The state's keys under a prefix (the CLI keeps the DIY backend's objects as rows of pulumi_state, keyed `<database>/<key>`). */
  keys(database: string, prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

const USER = "svc_state";

/** The server's bin directory: set by tests/globalSetup.ts, or installed (once per machine) here. */
function binDir(): string {
  if (process.env.PULUMI_SVC_POSTGRES_BIN) return process.env.PULUMI_SVC_POSTGRES_BIN;
  const script = path.join(__dirname, "..", "..", "scripts", "ensure-postgres.sh");
  return execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;
}

/** A command line as this user, or, for root, in a user namespace as uid 65534. */
const asUser = (argv: string[]) =>
  process.getuid?.() === 0 ? ["unshare", "--user", "--map-user=65534", "--map-group=65534", ...argv] : argv;

export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "svc-postgres-"));
  const data = path.join(root, "data");
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const pwfile = path.join(root, "pwfile");
  fs.writeFileSync(pwfile, password);
  const [cmd, ...args] = asUser([
    path.join(bin, "initdb"),
    "-D",
    data,
    "-U",
    USER,
    `--pwfile=${pwfile}`,
    "--auth=scram-sha-256",
    "-E",
    "UTF8",
    "--no-locale",
    "--no-sync",
  ]);
  execFileSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const [server, ...serverArgs] = asUser([
      path.join(bin, "postgres"),
      "-D",
      data,
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-k",
      root,
      "-c",
      "fsync=off",
    ]);
    let output = "";
    const child = spawn(server, serverArgs, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const client = () => new Client({ host: "127.0.0.1", port, user: USER, password, database: "postgres" });
    const ready = async () => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && child.exitCode === null) {
        const c = client();
        try {
          await c.connect();
          await c.end();
          return true;
        } catch {
          await sleep(200);
        }
      }
      return false;
    };
    if (!(await ready())) {
      child.kill("SIGKILL");
      if (attempt < 3 && /already in use/.test(output)) continue;
      throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}:\n${output}`);
    }
    const query = async <R>(database: string, sql: string, params: unknown[] = []): Promise<R[]> => {
      const c = new Client({ host: "127.0.0.1", port, user: USER, password, database });
      await c.connect();
      try {
        return (await c.query(sql, params)).rows as R[];
      } finally {
        await c.end();
      }
    };
    return {
      host: "127.0.0.1",
      port,
      user: USER,
      env: { PGPASSWORD: password },
      url: (database, at = `127.0.0.1:${port}`) => `postgres://${USER}@${at}/${database}?sslmode=disable`,
      async makeDatabase(name) {
        await query("postgres", `CREATE DATABASE ${name}`);
      },
      async keys(database, prefix = "") {
        const exists = await query<{ t: string | null }>(database, "SELECT to_regclass('pulumi_state')::text AS t");
        if (!exists[0]?.t) return [];
        // The CLI prefixes every key with the URL's path, the database's name (measured with 3.274.1).
        const rows = await query<{ key: string }>(database, "SELECT key FROM pulumi_state WHERE key LIKE $1", [`${database}/${prefix}%`]);
        return rows.map((r) => r.key.slice(database.length + 1)).sort();
      },
      async stop() {
        if (child.exitCode === null) {
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGINT"); // fast shutdown
          await exited;
        }
        fs.rmSync(root, { recursive: true, force: true });
      },
    };
  }
}
