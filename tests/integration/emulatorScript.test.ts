/**
 * `npm run emulator` at the repository's root starts the emulator package's bin (packages/emulator),
 * as it did when the emulator lived in this package: the first stdout line is the JSON the README
 * shows, and the emulator answers at that URL.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";

const ROOT = path.join(__dirname, "..", "..");

it("npm run --silent emulator prints the emulator's JSON line first and serves", async () => {
  // Its own process group, so the whole npm -> sh -> node chain stops together.
  const child = spawn("npm", ["run", "--silent", "emulator", "--", "--port", "0"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const [line] = (await readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next()).value.split("\n");
    const info = JSON.parse(line) as { url: string; token: string; workspaceId: string; staffToken: string };
    expect(Object.keys(info).sort()).toEqual(["staffToken", "token", "url", "workspaceId"]);
    const res = await fetch(`${info.url}/v1/workspaces/${info.workspaceId}`, { headers: { authorization: `Bearer ${info.token}` } });
    expect(res.status).toBe(200);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
});
