/**
 * Every relative link in the documentation reaches a file, and every `#anchor` a heading of the
 * page it names (as GitHub derives heading anchors): sections moved between README.md and docs/
 * must not leave a link behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = path.join(__dirname, "..", "..");

/** The Markdown files people read: README, ARCHITECTURE, CHANGELOG, the package READMEs and docs/ (not the generated SDKs). */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      return e.isDirectory() ? walk(rel) : e.name.endsWith(".md") ? [rel] : [];
    });
  const top = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md", "resources/README.md", "packages/emulator/README.md", "bench/README.md"];
  return [...top.filter((f) => fs.existsSync(path.join(REPO, f))), ...walk("docs")];
}

/** Prose only: code blocks hold example text, not links. */
const prose = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8").replace(/```[\s\S]*?```/g, "");

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replace(/ /g, "-");

const anchorsOf = (file: string) => new Set([...prose(file).matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1])));

describe("links in the documentation", () => {
  it.each(pages())("%s: every relative link and anchor resolves", (file) => {
    const broken: string[] = [];
    for (const [, link] of prose(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link)) continue;
      const [target, anchor] = link.split("#");
      const resolved = target ? path.normalize(path.join(path.dirname(file), target)) : file;
      if (!fs.existsSync(path.join(REPO, resolved))) broken.push(`${link} (no ${resolved})`);
      else if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(`${link} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });
});

/**
 * npm's package pages render a tarball's README with its relative links resolved against the
 * GitHub repository its package.json names (in `directory` for a package in a subfolder), where
 * the test above finds their targets: every published package names the same repository.
 */
describe("links on the npm pages of the published packages", () => {
  const manifest = (dir: string) =>
    JSON.parse(fs.readFileSync(path.join(REPO, dir, "package.json"), "utf8")) as {
      repository?: { type: string; url: string; directory?: string };
    };
  const root = manifest(".").repository;

  it.each([".", "packages/emulator", "sdk/nodejs"])(
    "%s names the repository (and its folder in it) its README's links resolve against",
    (dir) => {
      expect(root?.url).toMatch(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
      const own = manifest(dir).repository;
      const url = (u?: string) => u?.replace(/^git\+/, "").replace(/\.git$/, "");
      expect(url(typeof own === "string" ? own : own?.url)).toBe(url(root?.url));
      if (dir === "packages/emulator") expect(own?.directory).toBe(dir);
    },
  );
});
