/**
 * A real S3-compatible object store on a free loopback port: the Versity S3 Gateway
 * (scripts/ensure-s3.sh builds and caches it) serving a temporary directory with its `posix`
 * backend, where each sub-directory is a bucket. One per test file: started in beforeAll,
 * stopped in afterAll.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export interface ObjectStore {
  /** host:port, what the `endpoint` URL parameter takes. */
  endpoint: string;
  /** The credentials the CLI's S3 client reads from its environment. */
  env: Record<string, string>;
  /** The backend URL of a bucket for `pulumi login` (the gocloud.dev s3blob parameters pulumi 3.163 reads). */
  url(bucket: string, endpoint?: string): string;
  /** Makes an empty bucket (with the posix backend: a directory under the store's root). */
  makeBucket(name: string): void;
  /** The keys under a prefix of a bucket, as the server stores them. */
  keys(bucket: string, prefix?: string): string[];
  stop(): Promise<void>;
}

/** The server executable: set by tests/globalSetup.ts, or built (once per machine) here. */
function server(): string {
  if (process.env.PULUMI_SVC_S3_SERVER) return process.env.PULUMI_SVC_S3_SERVER;
  const script = path.join(__dirname, "..", "..", "scripts", "ensure-s3.sh");
  return execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;
}

/** A port nothing listens on right now (the server is then started on it; a lost race is retried). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

async function started(child: ChildProcess, port: number, output: () => string): Promise<boolean> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    if (await listening(port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`the object store did not listen on 127.0.0.1:${port} within 20 s:\n${output()}`);
}

export async function startObjectStore(): Promise<ObjectStore> {
  const exe = server();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "svc-s3-"));
  const access = "svc-e2e";
  const secret = randomBytes(16).toString("hex");
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let output = "";
    const child = spawn(exe, ["--port", `127.0.0.1:${port}`, "--access", access, "--secret", secret, "posix", root], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    if (!(await started(child, port, () => output))) {
      if (attempt < 3) continue; // the port was taken between the probe and the start
      throw new Error(`the object store (${exe}) exited: ${output}`);
    }
    const endpoint = `127.0.0.1:${port}`;
    return {
      endpoint,
      env: { AWS_ACCESS_KEY_ID: access, AWS_SECRET_ACCESS_KEY: secret, AWS_REGION: "us-east-1" },
      url: (bucket, at = endpoint) => `s3://${bucket}?endpoint=${at}&disableSSL=true&s3ForcePathStyle=true&region=us-east-1`,
      makeBucket: (name) => fs.mkdirSync(path.join(root, name)),
      keys(bucket, prefix = "") {
        const base = path.join(root, bucket);
        const found: string[] = [];
        const walk = (dir: string) => {
          if (!fs.existsSync(dir)) return;
          for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const p = path.join(dir, entry.name);
            if (entry.isDirectory()) walk(p);
            else found.push(path.relative(base, p));
          }
        };
        walk(path.join(base, prefix));
        // The gateway's own temporary files are not objects.
        return found.filter((k) => !k.startsWith(".sgwtmp")).sort();
      },
      async stop() {
        if (child.exitCode === null) {
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGTERM");
          await exited;
        }
        fs.rmSync(root, { recursive: true, force: true });
      },
    };
  }
}
