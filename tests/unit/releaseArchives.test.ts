/**
 * The plugin archives kept between runs (scripts/release/plugin.ts, keptArchiveDir and
 * keepArchive): an archive is reused only when every input it is made of is the same, and one
 * per target is kept, so the cache does not grow with every build.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { keepArchive, keptArchiveDir, NODE_BUILDS } from "../../scripts/release/plugin";

describe("the plugin archives kept between runs", () => {
  let scratch: string;
  const saved = process.env.PULUMI_SVC_CACHE;
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "svc-kept-archives-"));
    process.env.PULUMI_SVC_CACHE = path.join(scratch, "cache");
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PULUMI_SVC_CACHE;
    else process.env.PULUMI_SVC_CACHE = saved;
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  const file = (name: string, text: string) => {
    const f = path.join(scratch, name);
    fs.writeFileSync(f, text);
    return f;
  };
  const linuxArm = NODE_BUILDS.find((t) => t.os === "linux" && t.arch === "arm64")!;
  const windows = NODE_BUILDS.find((t) => t.os === "windows")!;

  it("is found under the same directory for the same inputs, and under another when the blob, the version or the target differs", () => {
    const blob = file("a.blob", "blob a");
    const same = keptArchiveDir(linuxArm, blob, "1.0.0");
    expect(keptArchiveDir(linuxArm, file("a-again.blob", "blob a"), "1.0.0")).toBe(same);
    expect(same.startsWith(path.join(scratch, "cache", "plugin-archives", "linux-arm64") + path.sep)).toBe(true);
    const others = [
      keptArchiveDir(linuxArm, file("b.blob", "blob b"), "1.0.0"),
      keptArchiveDir(linuxArm, blob, "1.0.1"),
      keptArchiveDir({ ...linuxArm, nodeVersion: "24.0.0" }, blob, "1.0.0"),
      keptArchiveDir(windows, blob, "1.0.0"),
    ];
    expect(new Set([same, ...others]).size).toBe(5);
  });

  it("keeps one archive per target: keeping a newer one removes the older, not another target's", () => {
    const first = keptArchiveDir(linuxArm, file("1.blob", "one"), "1.0.0");
    const second = keptArchiveDir(linuxArm, file("2.blob", "two"), "1.0.0");
    const win = keptArchiveDir(windows, file("1.blob", "one"), "1.0.0");
    keepArchive(file("arm.tar.gz", "first archive"), first);
    keepArchive(file("win.tar.gz", "windows archive"), win);
    expect(fs.readFileSync(path.join(first, "arm.tar.gz"), "utf8")).toBe("first archive");
    keepArchive(file("arm.tar.gz", "second archive"), second);
    expect(fs.existsSync(first)).toBe(false);
    expect(fs.readFileSync(path.join(second, "arm.tar.gz"), "utf8")).toBe("second archive");
    expect(fs.readFileSync(path.join(win, "win.tar.gz"), "utf8")).toBe("windows archive");
  });
});
