/**
 * The plugin's release archives (scripts/release/plugin.ts, issue 38), built once into a temporary
 * directory and used from there only, each check in a fresh directory outside the repository:
 * every archive holds one executable of its platform's format and CPU, the darwin ones signed ad
 * hoc; the linux-amd64 one runs
 * with no `node` on PATH and answers GetSchema with schema.json; and `pulumi plugin install
 * --server` fetches it from a loopback server, after which the YAML quickstart (its `plugins:`
 * path taken out) goes up, previews clean and is destroyed, with no `node` on PATH; and the
 * engine downloads it by itself from a `pluginDownloadURL` naming that server.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { GetSchemaRequest, GetSchemaResponse } from "@pulumi/pulumi/proto/provider_pb";
import { archiveName, executableFormat, executableName, NODE_BUILDS, pluginArchives } from "../../scripts/release/plugin";
import { parse } from "yaml";
import { startE2E, type E2E } from "./harness";
import { expectAllGone } from "./inventory";

jest.setTimeout(600_000);

const execFileAsync = promisify(execFile);
const REPO = path.join(__dirname, "..", "..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
const SCHEMA = fs.readFileSync(path.join(REPO, "schema.json"), "utf8");

const EXPECTED_FORMAT: Record<string, string> = {
  "linux-amd64": "ELF x86-64",
  "linux-arm64": "ELF aarch64",
  "darwin-amd64": "Mach-O x86_64",
  "darwin-arm64": "Mach-O arm64",
  "windows-amd64": "PE x86-64",
};

/** A PATH holding only the pulumi CLI's directory (its language hosts beside it): no `node` anywhere on it. */
const pulumiOnlyPath = (): string => {
  const dir = process.env.PULUMI_SVC_PULUMI_DIR ?? path.dirname(execFileSync("which", ["pulumi"], { encoding: "utf8" }).trim());
  expect(fs.existsSync(path.join(dir, "node"))).toBe(false);
  return dir;
};

const fresh = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `svc-release-${prefix}-`));

/** Unpacks one archive into a fresh directory and returns the names it holds. */
function unpack(file: string): { dir: string; entries: string[] } {
  const dir = fresh("unpack");
  execFileSync("tar", ["-xzf", file, "-C", dir]);
  return { dir, entries: fs.readdirSync(dir) };
}

/** A loopback HTTP server answering the archives of `dir` by name, as a release page does. */
async function serveArchives(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
    if (!fs.existsSync(file) || !file.endsWith(".tar.gz")) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe("the plugin's release archives", () => {
  let outDir: string;
  let archives: string[];
  const made: string[] = [];

  beforeAll(async () => {
    outDir = fresh("out");
    made.push(outDir);
    archives = await pluginArchives(outDir, VERSION);
  });
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes one archive per platform, each holding one executable of that platform's format and CPU", () => {
    expect(archives.map((a) => path.basename(a)).sort()).toEqual(NODE_BUILDS.map((t) => archiveName(VERSION, t)).sort());
    expect(Object.keys(EXPECTED_FORMAT).sort()).toEqual(NODE_BUILDS.map((t) => `${t.os}-${t.arch}`).sort());
    for (const t of NODE_BUILDS) {
      const { dir, entries } = unpack(path.join(outDir, archiveName(VERSION, t)));
      made.push(dir);
      expect({ platform: `${t.os}-${t.arch}`, entries }).toEqual({ platform: `${t.os}-${t.arch}`, entries: [executableName(t)] });
      const exe = path.join(dir, executableName(t));
      expect(fs.statSync(exe).mode & 0o111).toBe(0o111);
      expect({ platform: `${t.os}-${t.arch}`, format: executableFormat(exe) }).toEqual({
        platform: `${t.os}-${t.arch}`,
        format: EXPECTED_FORMAT[`${t.os}-${t.arch}`],
      });
      // The SEA blob is in (postject flips the fuse's last character from 0 to 1).
      expect(fs.readFileSync(exe).includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1")).toBe(true);
    }
  });

  it("signs the darwin executables ad hoc: one CodeDirectory whose SHA-256 page hashes match the file, as macOS checks them", () => {
    for (const t of NODE_BUILDS.filter((b) => b.os === "darwin")) {
      const { dir } = unpack(path.join(outDir, archiveName(VERSION, t)));
      made.push(dir);
      const data = fs.readFileSync(path.join(dir, executableName(t)));
      const commands = new Map<number, number>(); // command -> its offset (the last of each kind)
      for (let i = 0, at = 32; i < data.readUInt32LE(16); i++, at += data.readUInt32LE(at + 4)) commands.set(data.readUInt32LE(at), at);
      const lc = commands.get(0x1d); // LC_CODE_SIGNATURE
      expect({ platform: `${t.os}-${t.arch}`, signed: lc !== undefined }).toEqual({ platform: `${t.os}-${t.arch}`, signed: true });
      const [dataoff, datasize] = [data.readUInt32LE(lc! + 8), data.readUInt32LE(lc! + 12)];
      expect(dataoff + datasize).toBe(data.length);
      // The embedded signature (big-endian): a SuperBlob whose one slot is the CodeDirectory.
      expect(data.readUInt32BE(dataoff)).toBe(0xfade0cc0);
      expect(data.readUInt32BE(dataoff + 8)).toBe(1);
      const cd = dataoff + data.readUInt32BE(dataoff + 16);
      expect(data.readUInt32BE(cd)).toBe(0xfade0c02);
      expect(data.readUInt32BE(cd + 12) & 0x2).toBe(0x2); // CS_ADHOC
      const [hashOffset, slots, codeLimit] = [data.readUInt32BE(cd + 16), data.readUInt32BE(cd + 28), data.readUInt32BE(cd + 32)];
      expect([data[cd + 36], data[cd + 37], data[cd + 39]]).toEqual([32, 2, 12]); // SHA-256, 32 bytes, 4 KiB pages
      expect(codeLimit).toBe(dataoff);
      expect(slots).toBe(Math.ceil(codeLimit / 4096));
      const mismatched = [];
      for (let page = 0; page < slots; page++) {
        const hash = createHash("sha256")
          .update(data.subarray(page * 4096, Math.min((page + 1) * 4096, codeLimit)))
          .digest();
        if (!hash.equals(data.subarray(cd + hashOffset + page * 32, cd + hashOffset + (page + 1) * 32))) mismatched.push(page);
      }
      expect(mismatched).toEqual([]);
    }
  });

  it("runs the linux-amd64 executable with no node on PATH, answering GetSchema with schema.json", async () => {
    const { dir } = unpack(path.join(outDir, archiveName(VERSION, { os: "linux", arch: "amd64" })));
    made.push(dir);
    const cwd = fresh("run");
    made.push(cwd);
    const child = spawn(path.join(dir, "pulumi-resource-svc"), [], {
      cwd,
      env: { PATH: pulumiOnlyPath() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(Number(out.split("\n")[0]));
        });
        child.on("exit", (code) => reject(new Error(`the plugin exited with ${code} before printing its port: ${stderr}`)));
      });
      expect(port).toBeGreaterThan(0);
      const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const response = await new Promise<GetSchemaResponse>((resolve, reject) =>
        client.getSchema(new GetSchemaRequest(), (err, res) => (err ? reject(err) : resolve(res))),
      );
      client.close();
      expect(response.getSchema()).toBe(SCHEMA);
    } finally {
      child.kill();
    }
  });

  describe("installed by pulumi plugin install --server, running the YAML quickstart with no node on PATH", () => {
    let server: http.Server;
    let e2e: E2E;
    let pluginsHome: string;

    beforeAll(async () => {
      server = await serveArchives(outDir);
      const program = fresh("program");
      made.push(program);
      fs.cpSync(path.join(REPO, "examples", "yaml-quickstart"), program, {
        recursive: true,
        filter: (src) => !/Pulumi\.[^/]+\.yaml$/.test(src),
      });
      const project = path.join(program, "Pulumi.yaml");
      const text = fs.readFileSync(project, "utf8");
      const withoutPlugins = text.replace(/^plugins:\n(?:[ #].*\n|\n)*?(?=^\S)/m, "");
      expect(parse(text)).toHaveProperty("plugins");
      expect(parse(withoutPlugins)).not.toHaveProperty("plugins");
      fs.writeFileSync(project, withoutPlugins);
      e2e = await startE2E("release-plugin", { programDir: program, env: { PATH: pulumiOnlyPath() } });
      pluginsHome = e2e.env.PULUMI_HOME;
    });
    afterAll(async () => {
      await e2e?.stop();
      await new Promise((resolve) => server?.close(resolve));
    });

    it("installs the plugin from the loopback server into a fresh PULUMI_HOME", async () => {
      const { port } = server.address() as { port: number };
      // Asynchronously: the server answers from this process.
      await execFileAsync("pulumi", ["plugin", "install", "resource", "svc", VERSION, "--server", `http://127.0.0.1:${port}/`], {
        env: { ...e2e.env, PATH: pulumiOnlyPath() },
        cwd: made[made.push(fresh("install")) - 1],
      });
      const installed = path.join(pluginsHome, "plugins", `resource-svc-v${VERSION}`, "pulumi-resource-svc");
      expect(executableFormat(installed)).toBe("ELF x86-64");
    });

    it("goes up, previews clean and is destroyed, leaving nothing in the API", async () => {
      await e2e.stack.setConfig("svc-yaml-quickstart:dbPassword", { value: "release-plugin-db-pw", secret: true });
      const up = await e2e.up([]);
      expect(up.summary.result).toBe("succeeded");
      expect((await e2e.state()).length).toBeGreaterThan(10);
      const since = await e2e.lastSeq();
      const preview = await e2e.preview();
      expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
      expect(await e2e.mutations(since)).toEqual([]);
      await e2e.destroy();
      await expectAllGone(e2e);
    });
  });

  describe("downloaded by the engine itself from a pluginDownloadURL naming the server", () => {
    let server: http.Server;
    let e2e: E2E;

    beforeAll(async () => {
      server = await serveArchives(outDir);
      const { port } = server.address() as { port: number };
      const program = fresh("download");
      made.push(program);
      // The resource option a program sets where the SDK's own pluginDownloadURL (schema.json's,
      // the project's GitHub releases) is not where the archives are.
      fs.writeFileSync(
        path.join(program, "Pulumi.yaml"),
        [
          "name: svc-download",
          "runtime: yaml",
          "resources:",
          "  net:",
          "    type: svc:index:Vpc",
          "    properties: { name: downloaded-net, description: fetched by the engine, range: 10.78.0.0/16 }",
          // With no version the engine asks the server for the latest, which a plain HTTP server cannot answer.
          `    options: { pluginDownloadURL: "http://127.0.0.1:${port}/", version: ${VERSION} }`,
          "",
        ].join("\n"),
      );
      // The harness turns the engine's plugin downloads off for every other test; this one is about them.
      e2e = await startE2E("release-download", {
        programDir: program,
        env: { PATH: pulumiOnlyPath(), PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false" },
      });
    });
    afterAll(async () => {
      await e2e?.stop();
      await new Promise((resolve) => server?.close(resolve));
    });

    it("installs the plugin during up into a PULUMI_HOME that had none, then destroys, leaving nothing", async () => {
      const installed = path.join(e2e.env.PULUMI_HOME, "plugins", `resource-svc-v${VERSION}`, "pulumi-resource-svc");
      expect(fs.existsSync(installed)).toBe(false);
      const up = await e2e.up([]);
      expect(up.summary.result).toBe("succeeded");
      expect(executableFormat(installed)).toBe("ELF x86-64");
      expect((await e2e.state()).map((r) => r.type)).toContain("svc:index:Vpc");
      await e2e.destroy();
      await expectAllGone(e2e);
    });
  });
});
