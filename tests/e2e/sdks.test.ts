/**
 * The SDKs committed under sdk/ are generated from schema.json (`npm run sdks`, scripts/sdks.sh):
 * they must match a fresh generation, file for file, so that a change to the schema cannot ship
 * with SDKs that lag behind it. Needs the floor CLI and its language hosts (scripts/ensure-pulumi.sh floor).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

jest.setTimeout(300_000);

const REPO = path.join(__dirname, "..", "..");
const LANGUAGES = ["dotnet", "go", "java", "nodejs", "python"];
const FIX = "stale: run `npm run generate` (or `npm run sdks` alone when schema.json is current) and commit sdk/";

/** Every file under a directory, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe("sdk/", () => {
  let fresh: string;
  beforeAll(() => {
    fresh = fs.mkdtempSync(path.join(os.tmpdir(), "svc-sdks-"));
    execFileSync("bash", [path.join(REPO, "scripts", "sdks.sh"), fresh], { stdio: ["ignore", "ignore", "pipe"] });
  });
  afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }));

  it("holds one SDK per language", () => {
    expect(fs.readdirSync(path.join(REPO, "sdk")).sort()).toEqual(LANGUAGES);
  });

  it.each(LANGUAGES)("sdk/%s is what npm run sdks generates from schema.json today", (language) => {
    const committed = path.join(REPO, "sdk", language);
    const generated = path.join(fresh, language);
    const names = [...new Set([...filesUnder(committed), ...filesUnder(generated)])].sort();
    // Each file that is missing, extra or different, named with what to do about it.
    const stale = names
      .filter((name) => {
        const [a, b] = [path.join(committed, name), path.join(generated, name)];
        return !fs.existsSync(a) || !fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b));
      })
      .map((name) => `sdk/${language}/${name} ${FIX}`);
    expect(filesUnder(generated).length).toBeGreaterThan(0);
    expect(stale).toEqual([]);
  });
});
