/**
 * A real S3-compatible object store on free loopback ports: SeaweedFS's `weed mini`
 * (scripts/ensure-s3.sh builds and caches it: master, volume server, filer and S3 gateway in one
 * process), its data in a temporary directory, spoken to over the S3 REST API. With no identities
 * configured it serves every request, signed or not. One per test file: started in beforeAll,
 * stopped in afterAll, its data removed with it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface ObjectStore {
  /** host:port, what the `endpoint` URL parameter takes. */
  endpoint: string;
  /** The credentials the CLI's S3 client reads from its environment (the server checks no signature, but the client signs). */
  env: Record<string, string>;
  /** The backend URL of a bucket for `pulumi login` (the gocloud.dev s3blob parameters pulumi 3.163 reads). */
  url(bucket: string, endpoint?: string): string;
  /** Makes an empty bucket (PUT /<bucket>). */
  makeBucket(name: string): Promise<unknown>;
  /** The keys under a prefix of a bucket (ListObjectsV2). */
  keys(bucket: string, prefix?: string): Promise<string[]>;
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
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    if (await listening(port)) return true;
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`the object store did not listen on 127.0.0.1:${port} within 60 s:\n${output()}`);
}

/** A request to the store's S3 REST API (unsigned: the server checks no signature). */
async function s3(endpoint: string, method: string, pathAndQuery: string): Promise<string> {
  const res = await fetch(`http://${endpoint}${pathAndQuery}`, { method });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathAndQuery} on the object store: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** Every port `weed mini` listens on, each given (its defaults are fixed numbers two test files would share). */
const PORT_FLAGS = [
  "master.port",
  "master.port.grpc",
  "volume.port",
  "volume.port.grpc",
  "filer.port",
  "filer.port.grpc",
  "s3.port.grpc",
  "s3.port.iceberg",
  "s3.port.lance",
  "admin.port",
  "admin.port.grpc",
];

export async function startObjectStore(): Promise<ObjectStore> {
  const exe = server();
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-seaweedfs-"));
    const ports = await Promise.all(PORT_FLAGS.map(async (flag) => `-${flag}=${await freePort()}`));
    let output = "";
    const args = [
      "mini",
      `-dir=${dir}`,
      "-ip=127.0.0.1",
      "-ip.bind=127.0.0.1",
      `-s3.port=${port}`,
      ...ports,
      "-webdav=false",
      "-master.telemetry=false",
    ];
    const child = spawn(exe, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    if (!(await started(child, port, () => output))) {
      fs.rmSync(dir, { recursive: true, force: true });
      if (attempt < 3) continue; // a port was taken between the probe and the start
      throw new Error(`the object store (${exe}) exited: ${output}`);
    }
    const endpoint = `127.0.0.1:${port}`;
    return {
      endpoint,
      env: {
        AWS_ACCESS_KEY_ID: "svc-e2e",
        AWS_SECRET_ACCESS_KEY: "svc-e2e-secret",
        AWS_REGION: "us-east-1",
        // pulumi's S3 client since it moved to the AWS SDK for Go v2 checks each answer's checksum
        // when the store sends one, and logs `WARN Response has no supported checksum` on every
        // read when it does not (as many S3-compatible stores); checking only where an
        // operation requires it is the SDK's own setting for such stores (docs/guides/ci.md, "Where the state lives").
        AWS_RESPONSE_CHECKSUM_VALIDATION: "when_required",
      },
      url: (bucket, at = endpoint) => `s3://${bucket}?endpoint=${at}&disableSSL=true&s3ForcePathStyle=true&region=us-east-1`,
      async makeBucket(name) {
        // The gateway listens before its filer is ready to hold a bucket: retried for a while.
        for (let tries = 1; ; tries++) {
          try {
            return await s3(endpoint, "PUT", `/${name}`);
          } catch (err) {
            if (tries >= 60) throw err;
            await sleep(500);
          }
        }
      },
      async keys(bucket, prefix = "") {
        const xml = await s3(endpoint, "GET", `/${bucket}?list-type=2&max-keys=1000&prefix=${encodeURIComponent(prefix)}`);
        if (xml.includes("<IsTruncated>true</IsTruncated>")) throw new Error(`more than 1000 keys under ${bucket}/${prefix}`);
        return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]).sort();
      },
      async stop() {
        if (child.exitCode === null) {
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGTERM");
          await exited;
        }
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
