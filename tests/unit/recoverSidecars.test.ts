import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { removeTornSidecars } from "../../common/stack";

describe("svc-recover mends a stack's metadata sidecar a kill left torn (file backend)", () => {
  it("removes an empty or unreadable <stack>.json.attrs, keeps a whole one, and leaves other backends alone", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "svc-sidecars-"));
    const dir = path.join(root, ".pulumi", "stacks", "proj");
    fs.mkdirSync(dir, { recursive: true });
    const torn = path.join(dir, "dev.json.attrs");
    const whole = path.join(dir, "prod.json.attrs");
    fs.writeFileSync(torn, "");
    fs.writeFileSync(whole, JSON.stringify({ md5: "abc" }));
    const url = pathToFileURL(root).href;
    try {
      expect(removeTornSidecars("https://api.pulumi.com", "proj")).toEqual([]);
      expect(fs.existsSync(torn)).toBe(true);
      expect(removeTornSidecars(url, "proj")).toEqual([torn]);
      expect(fs.existsSync(torn)).toBe(false);
      expect(fs.existsSync(whole)).toBe(true);
      expect(removeTornSidecars(url, "proj")).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
